import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDateString, IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';

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
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsDateString() expires_at?: string;
}
