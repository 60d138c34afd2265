import { Body, Controller, Delete, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Doc, Errors, NoBody, NoContentRoute, type ErrorSpec } from '../api-docs/decorators';
import { ActionRoute, CreateRoute, PublicDocumentRoute, ReadRoute, ReplaceRoute, UpdateRoute } from '../api-docs/routes';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { SsfReceiverPrincipal } from '../common/auth/principal';
import {
  SsfPollDto,
  SsfStatusDto,
  SsfStreamChangeDto,
  SsfStreamConfigDto,
  SsfStreamIdQueryDto,
  SsfStreamQueryDto,
  SsfSubjectDto,
  SsfVerificationDto,
} from './dto/ssf-stream.dto';
import { SsfPollService } from './ssf-poll.service';
import { SsfStreamsService } from './ssf-streams.service';
import {
  SsfConfigurationSchema,
  SsfPollResponseSchema,
  SsfStreamConfigSchema,
  SsfStreamReadSchema,
  SsfStreamStatusSchema,
} from './ssf-stream.views';
import { PublicApi } from '../common/controller-kinds';

const NO_STREAM: ErrorSpec = [404, 'not_found', "No such stream of the receiver (another receiver's stream is not found either)"];

@PublicApi('', 'shared signals')
export class SsfConfigurationController {
  constructor(private readonly streams: SsfStreamsService) {}

  @Doc(
    'Shared Signals transmitter configuration',
    "SSF 1.0 §7.1: issuer, the JWKS the SETs are signed with (the authorization server's), push and poll delivery, and the stream management endpoints. Receivers authenticate with OAuth 2.0 (an access token of scope ssf from POST /oauth/token).",
  )
  @PublicDocumentRoute('.well-known/ssf-configuration', SsfConfigurationSchema, 'The configuration')
  configuration() {
    return this.streams.metadata();
  }
}

/** SSF 1.0 §8: a receiver manages its stream (one per receiver) with its access token. */
@ApiTags('shared signals')
@Controller('ssf')
@Auth('ssf')
export class SsfStreamsController {
  constructor(
    private readonly streams: SsfStreamsService,
    private readonly polls: SsfPollService,
  ) {}

  @Doc(
    'Create the stream',
    "SSF 1.0 §8.1.1.1. Push needs delivery.endpoint_url; poll gets the transmitter's poll URL back. The stream starts at the present: it carries what happens from now on.",
  )
  @CreateRoute('streams', SsfStreamConfigSchema, 'The stream configuration', [409, 'conflict', 'The receiver already has its stream'])
  create(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfStreamConfigDto) {
    return this.streams.create(p, dto);
  }

  @Doc(
    'Read the stream configuration',
    "SSF 1.0 §8.1.1.2: with stream_id, that stream; without, an array of the receiver's streams (zero or one).",
  )
  @ReadRoute('streams', SsfStreamReadSchema, 'The stream configuration (an array of them without stream_id)', NO_STREAM)
  read(@CurrentPrincipal() p: SsfReceiverPrincipal, @Query() query: SsfStreamQueryDto) {
    return this.streams.read(p, query.stream_id);
  }

  @Doc('Update the stream configuration', 'SSF 1.0 §8.1.1.3: the receiver-supplied members sent replace theirs; the others stay.')
  @UpdateRoute('streams', SsfStreamConfigSchema, 'The stream configuration', NO_STREAM)
  update(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfStreamChangeDto) {
    return this.streams.update(p, dto.stream_id, dto, false);
  }

  @Doc(
    'Replace the stream configuration',
    'SSF 1.0 §8.1.1.4: every receiver-supplied member is replaced (absent ones take their defaults).',
  )
  @ReplaceRoute('streams', SsfStreamConfigSchema, 'The stream configuration', NO_STREAM)
  replace(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfStreamChangeDto) {
    return this.streams.update(p, dto.stream_id, dto, true);
  }

  @Doc('Delete the stream', 'SSF 1.0 §8.1.1.5: its subjects and undelivered SETs go with it.')
  @NoContentRoute(Delete('streams'), 'Deleted', NO_STREAM)
  delete(@CurrentPrincipal() p: SsfReceiverPrincipal, @Query() query: SsfStreamIdQueryDto) {
    return this.streams.delete(p, query.stream_id);
  }

  @Doc('Read the stream status', 'SSF 1.0 §8.1.2.1.')
  @ReadRoute('status', SsfStreamStatusSchema, 'The status', NO_STREAM)
  status(@CurrentPrincipal() p: SsfReceiverPrincipal, @Query() query: SsfStreamIdQueryDto) {
    return this.streams.status(p, query.stream_id);
  }

  @Doc('Update the stream status', 'SSF 1.0 §8.1.2.2: paused holds events and delivers them on resume; disabled drops them.')
  @ActionRoute('status', 200, SsfStreamStatusSchema, 'The status', NO_STREAM)
  setStatus(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfStatusDto) {
    return this.streams.setStatus(p, dto);
  }

  @Doc(
    'Add a subject',
    'SSF 1.0 §8.1.3.2: an RFC 9493 subject (email, iss_sub with our issuer and the SCIM user id, or opaque with the SCIM user id).',
  )
  @NoBody(200, 'Added')
  @Errors(NO_STREAM)
  @Post('subjects/add')
  @HttpCode(200)
  async addSubject(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfSubjectDto): Promise<void> {
    await this.streams.addSubject(p, dto);
  }

  @Doc('Remove a subject', 'SSF 1.0 §8.1.3.3: no more events about it.')
  @NoContentRoute(Post('subjects/remove'), 'Removed', NO_STREAM)
  async removeSubject(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfSubjectDto): Promise<void> {
    await this.streams.removeSubject(p, dto);
  }

  @Doc(
    'Request a verification event',
    'SSF 1.0 §8.1.4.2: a verification SET, echoing state, is delivered on the stream (pushed, or returned by the next poll).',
  )
  @NoContentRoute(Post('verify'), 'The verification SET is on its way', NO_STREAM)
  async verify(@CurrentPrincipal() p: SsfReceiverPrincipal, @Body() dto: SsfVerificationDto): Promise<void> {
    await this.streams.verify(p, dto);
  }

  @Doc(
    'Poll for SETs',
    'RFC 8936: acknowledge (ack) or reject (setErrs) SETs of earlier polls and receive the pending ones, oldest first, by jti. A SET not acknowledged comes again. Without returnImmediately an empty poll waits up to 10 s.',
  )
  @ActionRoute('poll/:streamId', 200, SsfPollResponseSchema, 'The SETs', [404, 'not_found', 'No such poll stream of the receiver'])
  poll(@CurrentPrincipal() p: SsfReceiverPrincipal, @Param('streamId') streamId: string, @Body() dto: SsfPollDto) {
    return this.polls.poll(p, streamId, dto);
  }
}
