import { Module } from '@nestjs/common';
import { SamlModule } from '../saml.module';
import { TestSpController } from './test-sp.controller';
import { TestSpService } from './test-sp.service';

/** The development test service provider at /saml/test-sp/ (404 in production). */
@Module({ imports: [SamlModule], controllers: [TestSpController], providers: [TestSpService] })
export class TestSpModule {}
