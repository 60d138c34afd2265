import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';

/** Serves the built developer console (console/dist) at /console/. */
@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}
