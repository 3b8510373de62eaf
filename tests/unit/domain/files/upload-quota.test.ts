import { expect } from 'chai';
import {
  assertQuotaLeft,
  uploadQuotaDecider,
  type FileUploadCounted,
  type UploadQuota,
} from '../../../../domain/files/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(uploadQuotaDecider);
const now = '2026-03-01T10:00:00.000Z';
const quota: UploadQuota = { files: 3, bytes: 1000 };
const counted = (fileId: string, size: number): FileUploadCounted => ({
  type: 'FileUploadCounted',
  data: { fileId, size, day: '2026-03-01', countedAt: now },
});
const count = (fileId: string, size: number) => ({ type: 'CountUpload' as const, fileId, size, quota, now });
const exceeded = {
  limit: { files: 3, bytes: 1000, period: 'day (UTC)' },
  resetsAt: '2026-03-02T00:00:00.000Z',
};

describe('files upload quota decider (docs/files.md, "Quota")', () => {
  it('given no upload today, when one is counted, then it is', () =>
    given([])
      .when(count('f1', 400))
      .then([counted('f1', 400)]));

  it('given uploads within the quota, when one fits exactly, then it is counted', () =>
    given([counted('f1', 400), counted('f2', 100)])
      .when(count('f3', 500))
      .then([counted('f3', 500)]));

  it('given the day’s files used, when one more comes, then UPLOAD_QUOTA_EXCEEDED with the limit, the use and the reset', () => {
    const refused = given([counted('f1', 1), counted('f2', 1), counted('f3', 1)])
      .when(count('f4', 1))
      .thenRejects('UPLOAD_QUOTA_EXCEEDED');
    expect(refused.details).to.deep.equal({ ...exceeded, used: { files: 3, bytes: 3 } });
  });

  it('given bytes left but fewer than the file, when it comes, then UPLOAD_QUOTA_EXCEEDED', () => {
    const refused = given([counted('f1', 900)])
      .when(count('f2', 101))
      .thenRejects('UPLOAD_QUOTA_EXCEEDED');
    expect(refused.details).to.deep.equal({ ...exceeded, used: { files: 1, bytes: 900 } });
  });

  it('before reading a body: refused when no file or no byte is left, let through otherwise', () => {
    const fold = (events: FileUploadCounted[]) =>
      events.reduce((s, e) => uploadQuotaDecider.evolve(s, e), uploadQuotaDecider.initialState);
    expect(() => assertQuotaLeft(fold([counted('f1', 999)]), quota, now)).not.to.throw();
    expect(() => assertQuotaLeft(fold([counted('f1', 1000)]), quota, now)).to.throw(/upload quota reached/);
    expect(() => assertQuotaLeft(fold([counted('a', 1), counted('b', 1), counted('c', 1)]), quota, now)).to.throw(
      /3 files a day/,
    );
  });
});
