import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCheckpointKey, publicKeyToBase64 } from '@vigil/integrity';
import type { ExportFile } from './export-file';
import { runVerify } from './main';
import { SyntheticLog, syntheticEvent } from './synthetic-log';
import { verifyExport } from './verify-export';

const log = SyntheticLog.of(77);
const keys = [log.publicKey];

describe('verifyExport', () => {
  it.each([
    [0, 76],
    [0, 0],
    [76, 76],
    [5, 40],
    [31, 64],
    [63, 63],
  ])('verifies an honest export of leaves %i..%i', (from, to) => {
    const report = verifyExport(log.export(from, to), { trustedKeys: keys });
    expect(report.failure).toBeNull();
    expect(report).toMatchObject({ ok: true, checked: to - from + 1, range: { from, to }, keys_source: 'trusted' });
  });

  it('names the first altered event', () => {
    const file = log.export(10, 50);
    (file.leaves[15].event!.details as Record<string, unknown>).rows = 0;
    (file.leaves[20].event!.details as Record<string, unknown>).rows = 0;
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'altered', leaf_index: 25, event_id: log.events[25].id });
  });

  it('names an altered event whose leaf hash was recomputed to match, by the root', () => {
    const file = log.export(10, 50);
    file.leaves[3].event!.severity = 'info';
    file.leaves[3].event!.type = 'session.start';
    file.leaves[3].leaf_hash = new SyntheticLog([file.leaves[3].event!]).leafHashes[0].toString('hex');
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'root_mismatch' });
  });

  it('names a deleted leaf as missing', () => {
    const file = log.export(0, 76);
    file.leaves.splice(30, 1);
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'missing', leaf_index: 30 });
  });

  it('names swapped events as reordered, at the first of the two', () => {
    const file = log.export(0, 76);
    const a = file.leaves[12].event;
    file.leaves[12].event = file.leaves[40].event;
    file.leaves[40].event = a;
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'reordered', leaf_index: 12 });
  });

  it('names swapped entries of the listing as reordered', () => {
    const file = log.export(0, 76);
    [file.leaves[8], file.leaves[9]] = [file.leaves[9], file.leaves[8]];
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'reordered', leaf_index: 8 });
  });

  it('catches swapped entries renumbered to look in order, by the root', () => {
    const file = log.export(0, 76);
    [file.leaves[8], file.leaves[9]] = [{ ...file.leaves[9], leaf_index: 8 }, { ...file.leaves[8], leaf_index: 9 }];
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'root_mismatch' });
  });

  it('names a truncated tail as missing from its first absent leaf', () => {
    const file = log.export(0, 76);
    file.leaves.length = 70;
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'missing', leaf_index: 70 });
  });

  it('refuses a whole log replaced by a recomputed one signed with another key', () => {
    const events = log.events.map((e, i) => (i === 33 ? { ...e, severity: 'info' } : e));
    const forged = new SyntheticLog(events, { keyId: log.keyId, privateKey: generateCheckpointKey().privateKey });
    const file = forged.export();
    // Taken alone, the file is self-consistent: it carries the forger's key.
    expect(verifyExport(file).ok).toBe(true);
    // Against the keys the auditor kept it is refused, whether the forger reuses the key id or not.
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'bad_signature', leaf_index: null });
    file.keys = [];
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'bad_signature' });
    const renamed = new SyntheticLog(events, { keyId: 'ckey_forged' }).export();
    expect(verifyExport(renamed, { trustedKeys: keys }).failure).toMatchObject({ reason: 'bad_signature' });
  });

  it('refuses a checkpoint forged with another key, and a changed signed field', () => {
    const file = log.export();
    const forged = new SyntheticLog(log.events, { keyId: log.keyId }).checkpoint();
    expect(verifyExport({ ...file, checkpoint: forged }, { trustedKeys: keys }).failure).toMatchObject({ reason: 'bad_signature' });
    expect(verifyExport({ ...file, checkpoint: { ...file.checkpoint, tree_size: 76 } }, { trustedKeys: keys }).failure).toMatchObject({ reason: 'bad_signature' });
  });

  it('refuses tampered boundary proofs', () => {
    const file = log.export(20, 50);
    file.proofs.first!.audit_path[2] = 'ff'.repeat(32);
    file.proofs.last!.audit_path[2] = 'ff'.repeat(32);
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'root_mismatch' });
    const short = log.export(20, 50);
    short.proofs.first!.audit_path.pop();
    expect(verifyExport(short, { trustedKeys: keys }).failure).toMatchObject({ reason: 'root_mismatch' });
  });

  it('uses the tree hash of leaves retention dropped, and refuses an event silently absent', () => {
    const file = log.export(0, 76);
    for (const i of [0, 1, 2, 50]) Object.assign(file.leaves[i], { event: null, retained: false });
    expect(verifyExport(file, { trustedKeys: keys })).toMatchObject({ ok: true, checked: 73, not_retained: 4 });
    file.leaves[60].event = null;
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'missing', leaf_index: 60 });
  });

  it('checks the file against a checkpoint the auditor kept', () => {
    const kept = log.checkpoint(40);
    const file = log.export(0, 76);
    file.consistency = { first: 40, second: 77, proof: log.consistency(40, 77) };
    expect(verifyExport(file, { trustedKeys: keys, trustedCheckpoint: kept })).toMatchObject({ ok: true, consistent_with: { tree_size: 40 } });
    // Without the proof the extension cannot be shown.
    expect(verifyExport({ ...file, consistency: null }, { trustedKeys: keys, trustedCheckpoint: kept }).failure).toMatchObject({ reason: 'inconsistent' });
    // A log rewritten before leaf 40 (all re-signed with the real key, as a thief of it could) does not extend it.
    const rewritten = new SyntheticLog(log.events.map((e, i) => (i === 5 ? syntheticEvent(1000) : e)), { keyId: log.keyId, privateKey: log.privateKey });
    const other = rewritten.export();
    other.consistency = { first: 40, second: 77, proof: rewritten.consistency(40, 77) };
    expect(verifyExport(other, { trustedKeys: keys, trustedCheckpoint: kept }).failure).toMatchObject({ reason: 'inconsistent' });
    // A tail truncated and re-signed: the kept checkpoint is larger than the file's.
    const truncated = log.export(0, 29, 30);
    expect(verifyExport(truncated, { trustedKeys: keys, trustedCheckpoint: kept }).failure).toMatchObject({ reason: 'inconsistent' });
  });

  it('refuses keys in the file that differ from the trusted copy', () => {
    const file = log.export();
    file.keys = [{ ...log.publicKey, public_key: publicKeyToBase64(generateCheckpointKey().privateKey) }];
    expect(verifyExport(file, { trustedKeys: keys }).failure).toMatchObject({ reason: 'bad_signature' });
  });
});

describe('npm run verify -- file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-verify-'));
  const run = async (args: string[]) => {
    let out = '';
    let err = '';
    const code = await runVerify(args, { env: {}, out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  };
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };

  it('exits 0 for a verified file and 1 for a failed one, readable or JSON', async () => {
    const good = write('good.json', log.export());
    const keysPath = write('keys.json', { data: keys });
    const ok = await run(['file', good, '--keys', keysPath]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('VERIFIED');

    const file: ExportFile = log.export();
    file.leaves[7].event!.database_id = 'db_other';
    const bad = write('bad.json', file);
    const failed = await run(['file', bad, '--keys', keysPath]);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('FAILED  altered at leaf 7');
    const json = await run(['file', bad, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, failure: { reason: 'altered', leaf_index: 7 } });
  });

  it('exits 2 for usage errors and unreadable input', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['nonsense'])).code).toBe(2);
    expect((await run(['file'])).code).toBe(2);
    expect((await run(['file', join(dir, 'absent.json')])).code).toBe(2);
    expect((await run(['file', write('other.json', { format: 'something/v9' })])).code).toBe(2);
    expect((await run(['api'])).code).toBe(2);
    expect((await run(['api', '--url', 'http://127.0.0.1:9', '--from', 'x'])).code).toBe(2);
  });
});
