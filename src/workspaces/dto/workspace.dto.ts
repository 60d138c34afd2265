import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { Optional } from '../../common/optional';

export class CreateWorkspaceDto {
  @ApiProperty() @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(2000) description?: string;
}

export class UpdateWorkspaceDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(2000) description?: string;
}

export class AddMemberDto {
  @ApiProperty()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail()
  email: string;
  @ApiProperty({ enum: ['owner', 'member'] }) @IsIn(['owner', 'member']) role: 'owner' | 'member';
}

/** `?workspace_id=`: the query of a developer API list of one workspace's resources (the DTO refuses a bad id with 400). */
export class WorkspaceQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}
