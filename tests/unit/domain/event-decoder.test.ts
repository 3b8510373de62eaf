import { expect } from 'chai';
import type { DomainEvent } from '../../../domain/shared/decider.js';
import {
  eventDecoder,
  EventDecodingError,
  UnknownEventTypeError,
  UnsupportedSchemaVersionError,
  type StoredEvent,
} from '../../../domain/shared/event-decoder.js';
import { shopEventDecoder, shopEventSchemas, shopStreamDecoders } from '../../../domain/shop/event-decoder.js';

/** Version 3 is current: v1 had `title`, v2 renamed it `name`, v3 added `tags` (none for older events). */
type Renamed = DomainEvent<'Renamed', { id: number; name: string; tags: string[] }>;
type Counted = DomainEvent<'Counted', { n: number }>;
type TestEvent = Renamed | Counted;

const decoder = eventDecoder<TestEvent>({
  Renamed: {
    version: 3,
    upcasters: {
      1: ({ title, ...rest }: { id: number; title: string }) => ({ ...rest, name: title }),
      2: (data: { id: number; name: string }) => ({ ...data, tags: [] }),
    },
  },
  Counted: { version: 1 },
});

const stored = (
  type: string,
  schemaVersion: number | undefined,
  data: unknown,
): StoredEvent & { position: string } => ({
  type,
  ...(schemaVersion === undefined ? {} : { schemaVersion }),
  data,
  position: '00000000000000000001:00000000000000000001',
});

describe('eventDecoder', () => {
  it('hands back the very event stored at the current version: nothing copied', () => {
    const event = stored('Renamed', 3, { id: 1, name: 'a', tags: ['x'] });
    expect(decoder.decode(event)).to.equal(event);
    const counted = stored('Counted', 1, { n: 2 });
    expect(decoder.decode(counted)).to.equal(counted);
  });

  it('reads an event without a schema version as version 1', () => {
    const event = stored('Counted', undefined, { n: 2 });
    expect(decoder.decode(event)).to.equal(event);
    expect(decoder.decode(stored('Renamed', undefined, { id: 1, title: 't' })).data).to.deep.equal({
      id: 1,
      name: 't',
      tags: [],
    });
  });

  it('upcasts an older version through every step, keeping the rest of the event and leaving the stored one as it was', () => {
    const v1 = stored('Renamed', 1, { id: 7, title: 'Old' });
    const decoded = decoder.decode(v1);
    expect(decoded).to.deep.equal({ ...v1, schemaVersion: 3, data: { id: 7, name: 'Old', tags: [] } });
    expect(decoded.position).to.equal(v1.position);
    expect(v1).to.deep.equal(stored('Renamed', 1, { id: 7, title: 'Old' }));
    // From the middle of the chain: only the later steps run.
    expect(decoder.decode(stored('Renamed', 2, { id: 7, name: 'Mid' })).data).to.deep.equal({
      id: 7,
      name: 'Mid',
      tags: [],
    });
  });

  it('gives an upcaster the stored event, e.g. to fill a field from its metadata', () => {
    type Made = DomainEvent<'Made', { madeAt: string }>;
    const made = eventDecoder<Made>({
      Made: { version: 2, upcasters: { 1: (_data: object, event) => ({ madeAt: event.metadata?.occurredAt }) } },
    });
    const event = { type: 'Made', schemaVersion: 1, data: {}, metadata: { occurredAt: '2026-01-01T00:00:00.000Z' } };
    expect(made.decode(event).data).to.deep.equal({ madeAt: '2026-01-01T00:00:00.000Z' });
  });

  it('refuses an unknown type with a typed error, never a cast', () => {
    expect(() => decoder.decode(stored('Vanished', 1, {})))
      .to.throw(UnknownEventTypeError, 'unknown event type Vanished at schema version 1')
      .that.is.instanceOf(EventDecodingError)
      .and.include({ eventType: 'Vanished', schemaVersion: 1 });
    expect(decoder.has('Vanished')).to.equal(false);
    expect(decoder.has('Counted')).to.equal(true);
  });

  it('refuses a version newer than it knows (written by a newer release), and one no upcaster starts from', () => {
    expect(() => decoder.decode(stored('Renamed', 4, {})))
      .to.throw(
        UnsupportedSchemaVersionError,
        'Renamed at schema version 4 cannot be read: this code reads versions 1 to 3',
      )
      .that.include({ eventType: 'Renamed', schemaVersion: 4, currentVersion: 3 });
    expect(() => decoder.decode(stored('Counted', 2, { n: 1 }))).to.throw(UnsupportedSchemaVersionError);
    for (const version of [0, -1, 1.5, Number.NaN])
      expect(() => decoder.decode(stored('Renamed', version, {})), String(version)).to.throw(
        UnsupportedSchemaVersionError,
      );
  });

  it('tells writers the version to stamp, and refuses a type it does not know', () => {
    expect(decoder.currentVersion('Renamed')).to.equal(3);
    expect(decoder.currentVersion('Counted')).to.equal(1);
    expect(() => decoder.currentVersion('Nope' as 'Counted')).to.throw(
      UnknownEventTypeError,
      'unknown event type Nope',
    );
  });

  it('refuses at build time a registry whose chain has a gap, a step past the current version or a bad version', () => {
    expect(() => eventDecoder<Renamed>({ Renamed: { version: 3, upcasters: { 1: (d: object) => d } } })).to.throw(
      'Renamed: no upcaster from version 2 to 3',
    );
    expect(() => eventDecoder<Renamed>({ Renamed: { version: 1, upcasters: { 1: (d: object) => d } } })).to.throw(
      'Renamed: upcasters from 1 do not lead to version 1',
    );
    for (const version of [0, 1.5])
      expect(() => eventDecoder<Renamed>({ Renamed: { version } })).to.throw(
        'Renamed: schema version must be 1 or more',
      );
  });

  it('restricted with only(), reads its types (upcasting them the same way) and refuses every other', () => {
    const renamedOnly = decoder.only({ Renamed: true });
    expect(renamedOnly.decode(stored('Renamed', 1, { id: 1, title: 't' })).data).to.deep.equal({
      id: 1,
      name: 't',
      tags: [],
    });
    expect(() => renamedOnly.decode(stored('Counted', 1, { n: 1 }))).to.throw(UnknownEventTypeError);
    expect(renamedOnly.has('Counted')).to.equal(false);
    expect(() => decoder.only({ Missing: true } as unknown as { Counted: true })).to.throw(UnknownEventTypeError);
  });
});

describe('the shop decoder', () => {
  it('knows every shop event type at version 1: nothing has changed shape yet', () => {
    const types = Object.keys(shopEventSchemas);
    expect(types).to.have.length.greaterThan(30);
    for (const type of types) expect(shopEventDecoder.currentVersion(type as never), type).to.equal(1);
  });

  it('splits into stream decoders that together cover every type, each type in one stream category', () => {
    const streams = Object.entries(shopStreamDecoders());
    for (const type of Object.keys(shopEventSchemas)) {
      const holders = streams.filter(([, d]) => d.has(type)).map(([name]) => name);
      expect(holders, type).to.have.length(1);
    }
  });
});
