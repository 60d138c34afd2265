import { Module } from '@nestjs/common';
import { CommonModule } from '../../common/common.module';
import { SamlModule } from '../saml.module';
import { TestSpController } from './test-sp.controller';
import { TestSpService } from './test-sp.service';

/** The development test service provider at /saml/test-sp/ (404 in production). */
@Module({ imports: [CommonModule, SamlModule], controllers: [TestSpController], providers: [TestSpService] })
export class TestSpModule {}
