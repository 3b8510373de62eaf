/**
 * The files context's aggregates, as the write engine names them (application/shared/aggregate.ts;
 * docs/event-store.md, "The write engine"): a file (stream file-<fileId>) and an owner's upload quota of a day.
 */
import {
  fileDecider,
  filesDecoders,
  filesEventDecoder,
  streams,
  uploadQuotaDecider,
  type FileOwner,
} from '../../domain/files/index.js';
import { aggregate, type AggregateDeps } from '../shared/aggregate.js';

/** Whose quota, and which UTC day (YYYY-MM-DD). */
export interface QuotaId {
  owner: FileOwner;
  day: string;
}

export function filesAggregates(deps: AggregateDeps) {
  const eventDecoder = filesEventDecoder;
  return {
    file: aggregate({ decider: fileDecider, stream: streams.file, decoder: filesDecoders.file, eventDecoder }, deps),
    uploadQuota: aggregate(
      {
        decider: uploadQuotaDecider,
        stream: (id: QuotaId) => streams.uploadQuota(id.owner, id.day),
        decoder: filesDecoders.uploadQuota,
        eventDecoder,
      },
      deps,
    ),
  };
}
