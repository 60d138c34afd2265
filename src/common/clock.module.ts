import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';

/** Global: one clock per app, so a test that moves it moves it for every module. */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
