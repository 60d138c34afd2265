import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDateString, IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { Optional } from '../../common/optional';

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class SignupDto {
  @ApiProperty() @Transform(lower) @IsEmail() @MaxLength(320) email: string;
  @ApiProperty({ minLength: 8, maxLength: 256 }) @IsString() @Length(8, 256) password: string;
  @ApiProperty() @IsString() @Length(1, 200) name: string;
}

export class DeveloperLoginDto {
  @ApiProperty() @Transform(lower) @IsString() @MaxLength(320) email: string;
  @ApiProperty() @IsString() @MaxLength(256) password: string;
}

export class CreateDeveloperTokenDto {
  @ApiProperty() @IsString() @Length(1, 200) label: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'null or left out: the token lasts until revoked' })
  @Optional({ nullable: true })
  @IsDateString()
  expires_at?: string | null;
}
