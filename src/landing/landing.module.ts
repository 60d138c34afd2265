import { Module } from '@nestjs/common';
import { SamlModule } from '../saml/saml.module';
import { LandingController } from './landing.controller';

/** The HTML page at `/` and the quickstart it links to. */
@Module({ imports: [SamlModule], controllers: [LandingController] })
export class LandingModule {}
