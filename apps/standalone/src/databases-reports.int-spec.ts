import { createHash } from 'node:crypto';
import { pdfPages, startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './testing/http';
import { apiKey, userWithScopes } from './testing/access';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Monitored databases and compliance reports end to end (docs/reports.md): the registry through
 * the gateway, discovery of unknown databases, database.* and report.generated webhooks, the
 * figures of every report type over seeded events and alerts (read from the delivery service),
 * schedule validation (firing once per slot with two instances: report-schedules.kafka-spec.ts),
 * and a report failing, not completing without its alerts, while delivery is unreachable.
 */
describe('databases and reports', () => {
  let system: TestSystem;
  let receiver: WebhookReceiver;
  let token: string;
  const run = Date.now().toString(36);
  const api = (method: string, path: string, body?: unknown, as = token) => http(system.gatewayUrl, method, path, { token: as, body });
  const ingest = async (events: unknown[]) => {
    const response = await api('POST', '/v1/events/ingest', { events });
    expect(response.status).toBe(202);
    return response.body.ids as string[];
  };

  beforeAll(async () => {
    system = await startTestSystem({
      bus: 'memory',
      env: {
        DELIVERY_ALLOW_INSECURE_TARGETS: 'true',
        DATABASE_SILENCE_SECONDS: '2',
        DATABASE_MONITOR_INTERVAL_MS: '200',
        REPORTS_POLL_MS: '200',
        // The last test stops the delivery service: a report then gives up on its alerts after 1.5 s.
        REPORTS_ALERTS_RETRY_MS: '1500',
      },
    });
    receiver = await startWebhookReceiver();
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  describe('registry', () => {
    it('creates, reads, lists with filters, updates and deletes a database', async () => {
      const created = await api('POST', '/v1/databases', {
        name: `Payments ${run}`,
        type: 'postgresql',
        host: 'pg1.internal',
        port: 5432,
        database: 'payments',
        environment: 'production',
        tags: ['pci', 'finance', 'pci'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^db_/),
        name: `Payments ${run}`,
        type: 'postgresql',
        status: 'registered',
        connection_status: 'unknown',
        tags: ['pci', 'finance'],
        event_count: 0,
        last_event_at: null,
      });
      const id = created.body.id as string;
      expect((await api('GET', `/v1/databases/${id}`)).body).toEqual(created.body);

      const filtered = await api('GET', `/v1/databases?tag=finance&environment=production&q=${encodeURIComponent(`payments ${run}`)}`);
      expect(filtered.status).toBe(200);
      expect(filtered.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
      expect(filtered.body.pagination).toEqual({ total: 1, page: 1, per_page: 20, has_more: false });
      expect((await api('GET', `/v1/databases?tag=nothing-${run}`)).body.data).toEqual([]);

      const patched = await api('PATCH', `/v1/databases/${id}`, { port: 6432, tags: ['pci'] });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id, port: 6432, tags: ['pci'], host: 'pg1.internal' });

      const duplicate = await api('POST', '/v1/databases', { name: `PAYMENTS ${run}`, type: 'mysql' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.code).toBe('database_name_taken');

      expect((await api('DELETE', `/v1/databases/${id}`)).body).toEqual({ deleted: true, id });
      const gone = await api('GET', `/v1/databases/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe('database_not_found');
    });

    it.each([
      ['an unknown type', { name: 'x', type: 'excel' }, 'type'],
      ['a missing name', { type: 'mysql' }, 'name'],
      ['a port out of range', { name: 'x', type: 'mysql', port: 70000 }, 'port'],
      ['an unknown field', { name: 'x', type: 'mysql', password: 'secret' }, 'password'],
      ['a bad id', { id: 'prod', name: 'x', type: 'mysql' }, 'id'],
    ])('refuses %s with 400 and the field', async (_what, body, field) => {
      const response = await api('POST', '/v1/databases', body);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('needs read:databases to read and write:databases to change', async () => {
      const reader = await userWithScopes(system.gatewayUrl, token, ['read:databases']);
      expect((await api('GET', '/v1/databases', undefined, reader.token)).status).toBe(200);
      const refused = await api('POST', '/v1/databases', { name: `r ${run}`, type: 'mysql' }, reader.token);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toContain('scope="write:databases"');
      const other = await userWithScopes(system.gatewayUrl, token, ['read:reports']);
      expect((await api('GET', '/v1/databases', undefined, other.token)).status).toBe(403);
      expect((await http(system.gatewayUrl, 'GET', '/v1/databases')).status).toBe(401);
    });

    it('accepts records for an unknown database, lists it as discovered, and registering it keeps its activity', async () => {
      const id = `db_found_${run}`;
      await ingest([
        { type: 'database.query', database_id: id, severity: 'info', details: { user: 'app', query: 'SELECT 1' } },
        { type: 'security.threat_detected', database_id: id, details: { user: 'x' } },
      ]);
      const found = await api('GET', `/v1/databases/${id}`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ id, name: id, status: 'discovered', type: null, event_count: 2, event_counts: { info: 1, warning: 0, critical: 1 } });
      expect(found.body.last_event_at).not.toBeNull();
      const discovered = await api('GET', `/v1/databases?status=discovered&q=${id}`);
      expect(discovered.body.data.map((d: { id: string }) => d.id)).toEqual([id]);

      const registered = await api('POST', '/v1/databases', { id, name: `Found ${run}`, type: 'mysql' });
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({ id, status: 'registered', type: 'mysql', event_count: 2 });
      expect((await api('POST', '/v1/databases', { id, name: `Again ${run}`, type: 'mysql' })).body.code).toBe('database_id_taken');
    });

    it('lists a database named only by a policy as discovered', async () => {
      const id = `db_policy_${run}`;
      const policy = await api('POST', '/v1/policies', {
        name: `discovery ${run}`,
        type: 'query_control',
        databases: [id],
        config: { rules: [{ name: 'no drop', pattern: 'DROP', action: 'block', severity: 'high', message: 'no' }] },
      });
      expect(policy.status).toBe(201);
      const found = await waitFor(async () => {
        const r = await api('GET', `/v1/databases/${id}`);
        return r.status === 200 ? r.body : undefined;
      }, 10_000, 'database discovered from the policy');
      expect(found).toMatchObject({ id, status: 'discovered', event_count: 0 });
    });
  });

  describe('connection events', () => {
    it('emits database.connected, database.disconnected after silence, and database.error when an agent reports one', async () => {
      const id = `db_hooks_${run}`;
      const hook = await api('POST', '/v1/webhooks', { url: `${receiver.url}/db-${run}`, events: ['database.*'], description: 'db events' });
      expect(hook.status).toBe(201);
      const webhookTypes = ['database.connected', 'database.disconnected', 'database.error'];
      // `database.*` also matches the audit events database.connection / .disconnect: keep the webhook types.
      const mine = () => receiver.on(`/db-${run}`).map((r) => JSON.parse(r.body)).filter((b) => b.data.database_id === id && webhookTypes.includes(b.type));

      await ingest([{ type: 'database.connection', database_id: id, details: { user: 'app' } }]);
      await waitFor(() => mine().some((b) => b.type === 'database.connected'), 15_000, 'database.connected');
      await waitFor(() => mine().some((b) => b.type === 'database.disconnected'), 15_000, 'database.disconnected');
      expect((await api('GET', `/v1/databases/${id}`)).body.connection_status).toBe('disconnected');

      await ingest([{ type: 'database.disconnect', database_id: id, details: { user: 'app', error: 'agent lost the audit stream' } }]);
      const error = await waitFor(() => mine().find((b) => b.type === 'database.error'), 15_000, 'database.error');
      expect(error.data).toMatchObject({ database_id: id, connection_status: 'error', message: 'agent lost the audit stream', reason: 'agent_reported_error' });
      expect(mine().map((b) => b.type)).toEqual(['database.connected', 'database.disconnected', 'database.error']);
    });
  });

  describe('reports', () => {
    const a = `db_rpt_a_${run}`;
    const b = `db_rpt_b_${run}`;
    const start = new Date(Date.now() - 3 * 86_400_000);
    start.setUTCHours(0, 0, 0, 0);
    const end = new Date(start.getTime() + 86_400_000);
    const at = (minute: number) => new Date(start.getTime() + minute * 60_000).toISOString();
    const rec = (type: string, db: string, details: Record<string, unknown>, minute = 10) => ({ type, database_id: db, timestamp: at(minute), details });

    beforeAll(async () => {
      // Violations are derived by enforcement (producers may not send policy.violation): a policy
      // that blocks a marker query, in force once a probe record outside the report is caught.
      const marker = `SELECT marker_${run}`;
      const probeDb = `db_rpt_probe_${run}`;
      const policy = await api('POST', '/v1/policies', {
        name: `report violations ${run}`, type: 'query_control', databases: [a, b, probeDb], enabled: true,
        config: { rules: [{ name: 'marker', pattern: `marker_${run}`, action: 'block', severity: 'high' }] },
      });
      expect(policy.status).toBe(201);
      await waitFor(
        async () => {
          await ingest([{ type: 'database.query', database_id: probeDb, details: { user: 'probe', query: marker } }]);
          return (await system.db.query(`SELECT 1 FROM event_ingest.events WHERE database_id = $1 AND type = 'policy.violation'`, [probeDb])).length > 0;
        },
        30_000,
        'the policy in force',
      );
      const events = [
        ...[1, 2, 3].map((m) => rec('data.sensitive_access', a, { user: 'alice', query: 'SELECT pan FROM cards' }, m)),
        rec('data.sensitive_access', b, { user: 'bob', query: marker }),
        rec('data.export', a, { user: 'alice' }),
        ...[1, 2, 3, 4].map((m) => rec('user.login_failed', a, { user: 'mallory', source_ip: '10.0.0.9' }, m)),
        rec('user.login_failed', b, { user: 'alice', source_ip: '10.0.0.1' }),
        rec('security.privilege_escalation', a, { user: 'eve' }),
        rec('database.query', a, { user: 'dba', query: 'GRANT ALL ON cards TO eve' }),
        rec('database.query', a, { user: 'dba', query: 'ALTER TABLE cards ADD COLUMN x int' }),
        rec('database.query', b, { user: 'dba', query: 'DROP TABLE old_ledger' }),
        ...[1, 2, 3, 4, 5].map((m) => rec('database.query', a, { user: 'alice', query: 'SELECT 1' }, m)),
        rec('database.query', b, { user: 'clerk', query: 'UPDATE ledger SET amount = 1 WHERE id = 1' }),
        rec('database.query', b, { user: 'clerk', query: 'UPDATE ledger SET amount = 2 WHERE id = 2' }),
        rec('database.query', b, { user: 'clerk', query: 'INSERT INTO ledger VALUES (3)' }),
        rec('database.query', b, { user: 'clerk', query: 'DELETE FROM ledger WHERE id = 3' }),
        rec('security.threat_detected', a, { user: 'x', threat_type: 'sql_injection' }),
        rec('security.threat_detected', b, { user: 'x', threat_type: 'sql_injection' }),
        // Each of these two also yields a policy.violation (the marker policy above).
        rec('security.anomaly', a, { user: 'alice', query: marker }),
        // Outside the period or the scope: not counted.
        { type: 'data.sensitive_access', database_id: a, timestamp: end.toISOString(), details: { user: 'late' } },
        rec('data.sensitive_access', `db_other_${run}`, { user: 'elsewhere' }),
      ];
      await ingest(events);
      // The delivery service raises alerts from security.anomaly and data.sensitive_access events
      // (docs/alerts.md): alice's three accesses fold into one alert, bob's and the anomaly are one
      // each, 'late' (first seen at the period's end) and db_other are outside the report.
      const alertCount = async (db: string) => (await api('GET', `/v1/alerts?database_id=${db}&per_page=100`)).body.pagination.total as number;
      await waitFor(async () => (await alertCount(a)) === 3 && (await alertCount(b)) === 1, 20_000, 'alerts raised from the seeded events');
    });

    const generate = async (type: string, databases = [a, b], formats?: string[]) => {
      const created = await api('POST', '/v1/reports', { type, period_start: start.toISOString(), period_end: end.toISOString(), databases, formats });
      expect(created.status).toBe(202);
      expect(created.body).toMatchObject({ id: expect.stringMatching(/^rpt_/), type, status: 'queued', progress: 0 });
      return waitFor(async () => {
        const r = await api('GET', `/v1/reports/${created.body.id}`);
        return r.body.status === 'completed' ? r.body : r.body.status === 'failed' ? Promise.reject(new Error(r.body.error)) : undefined;
      }, 30_000, `${type} report`);
    };

    it('PCI DSS: cardholder data access, failed logins, privileged actions, security events, violations', async () => {
      const report = await generate('pci_dss');
      expect(report.summary).toEqual({
        total_events: 28,
        databases_with_events: 2,
        cardholder_data_access: 5,
        failed_logins: 5,
        privileged_actions: 4,
        security_events: 6,
        policy_violations: 2,
        alerts: 3,
        // Vigil's own administrative actions in the period (none: it lies in the past).
        administrative_actions: 0,
        audit_log_coverage: 28,
      });
      const doc = (await api('GET', `/v1/reports/${report.id}/download?format=json`)).body;
      const section = (id: string) => doc.sections.find((s: { id: string }) => s.id === id);
      expect(section('cardholder_data_access').rows.map((r: unknown[]) => r.slice(0, 3))).toEqual([
        ['alice', 4, 1],
        ['bob', 1, 1],
      ]);
      expect(section('failed_logins').rows[0].slice(0, 3)).toEqual(['mallory', '10.0.0.9', 4]);
      expect(section('privileged_actions').rows.map((r: (string | null)[]) => r[6] ?? r[5]).sort()).toEqual(['ALTER', 'DROP', 'GRANT', 'security.privilege_escalation']);
      expect(section('alerts')).toMatchObject({
        available: true,
        controls: ['PCI DSS 10.4.3', 'PCI DSS 10.7.3'],
        metrics: { alerts: 3, type_classification_alert: 2, type_anomaly_detection: 1, status_open: 3, databases: 2, occurrences: 5 },
      });
      expect(section('alerts').rows.map((r: unknown[]) => [r[3], r[5]]).sort()).toEqual([
        ['anomaly_detection', a],
        ['classification_alert', a],
        ['classification_alert', b],
      ]);
      expect(section('cardholder_data_access').controls).toEqual(['PCI DSS 10.2.1.1']);
    });

    it('SOX: changes to financial data, privileges and structure', async () => {
      const report = await generate('sox');
      expect(report.summary).toMatchObject({ financial_data_changes: 4, privilege_changes: 2, schema_changes: 2, failed_logins: 5, policy_violations: 2, alerts: 3 });
    });

    it('HIPAA: access to ePHI, login monitoring, incidents, access control changes', async () => {
      const report = await generate('hipaa');
      expect(report.summary).toMatchObject({ phi_access: 5, failed_logins: 5, security_incidents: 6, access_control_changes: 2, policy_violations: 2, alerts: 3 });
    });

    it('GDPR: access to and export of personal data, breach indicators; downloadable as CSV and HTML', async () => {
      const hook = await api('POST', '/v1/webhooks', { url: `${receiver.url}/reports-${run}`, events: ['report.generated'] });
      expect(hook.status).toBe(201);
      const report = await generate('gdpr');
      expect(report.summary).toMatchObject({ personal_data_access: 4, personal_data_exports: 1, breach_indicators: 4, policy_violations: 2, alerts: 3 });
      expect(report.links.csv).toMatch(new RegExp(`/v1/reports/${report.id}/download\\?format=csv$`));

      const csv = await fetch(`${system.gatewayUrl}/v1/reports/${report.id}/download?format=csv`, { headers: { authorization: `Bearer ${token}` } });
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const csvText = await csv.text();
      expect(csvText).toContain('personal_data_exports,events,1\r\n');
      const html = await fetch(`${system.gatewayUrl}/v1/reports/${report.id}/download?format=html`, { headers: { authorization: `Bearer ${token}` } });
      expect(html.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await html.text();
      for (const text of ['GDPR — Access to and export of personal data', 'Control mapping', 'GDPR Art. 33', start.toISOString(), report.id]) expect(page).toContain(text);

      const delivered = await waitFor(
        () => receiver.on(`/reports-${run}`).map((r) => JSON.parse(r.body)).find((body) => body.data.report_id === report.id),
        15_000,
        'report.generated webhook',
      );
      expect(delivered).toMatchObject({ type: 'report.generated', data: { report_type: 'gdpr', summary: report.summary, links: { html: expect.stringContaining(`/v1/reports/${report.id}/download?format=html`) } } });
    });

    it('PDF: a cover page, every section, known rows, Page n of m and the SHA-256 of the JSON download on every page', async () => {
      // A database of its own, with text the standard PDF fonts cannot show (no alert is raised from a query).
      const p = `db_rpt_pdf_${run}`;
      expect((await api('POST', '/v1/databases', { id: p, name: `Zahlungen Zoë ${run}`, type: 'postgresql' })).status).toBe(201);
      await ingest([rec('database.query', p, { user: 'Zoë 日本 😀', query: 'GRANT SELECT ON "Überweisungen" TO auditor_ß -- ≤ ✓' })]);
      // A checkpoint that covers the events stored so far, for the report to name.
      await waitFor(
        async () =>
          (
            await system.db.query<{ done: boolean }>(
              `SELECT (SELECT coalesce(max(tree_size), 0) FROM event_ingest.integrity_checkpoints) >= (SELECT last_seq FROM event_ingest.event_sequence) - 1 AS done`,
            )
          )[0]!.done,
        30_000,
        'a checkpoint covering the stored events',
      );
      const report = await generate('pci_dss', [a, b, p]);
      expect(report.formats).toEqual(['json', 'csv', 'html', 'pdf']);
      expect(report.links.pdf).toMatch(new RegExp(`/v1/reports/${report.id}/download\\?format=pdf$`));

      const get = (format: string) => fetch(`${system.gatewayUrl}/v1/reports/${report.id}/download?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
      const jsonBytes = Buffer.from(await (await get('json')).arrayBuffer());
      const digest = createHash('sha256').update(jsonBytes).digest('hex');
      const doc = JSON.parse(jsonBytes.toString('utf8'));
      // The report names the newest signed checkpoint of its snapshot, exactly as the integrity API serves it.
      const named = doc.integrity_checkpoint;
      expect(named).toMatchObject({ tree_size: expect.any(Number), log_size: expect.any(Number) });
      expect(named.log_size).toBeGreaterThanOrEqual(named.tree_size);
      const served = await api('GET', `/v1/integrity/checkpoints/${named.tree_size}`);
      expect(served.status).toBe(200);
      const { log_size: _, ...checkpoint } = named;
      expect(served.body).toMatchObject(checkpoint);

      const response = await get('pdf');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${report.id}-pci_dss.pdf"`);
      const pdf = Buffer.from(await response.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // Stored at generation: every download is the same file.
      expect(Buffer.from(await (await get('pdf')).arrayBuffer()).equals(pdf)).toBe(true);

      const pages = pdfPages(pdf);
      const cover = pages[0]!;
      for (const text of [report.title, 'pci_dss', report.id, `${start.toISOString()} to ${end.toISOString()} (UTC, end exclusive)`, a, b, `Zahlungen Zoë ${run}`, doc.generated_at, '(on request)', 'Integrity checkpoint', named.root_hash, digest]) {
        expect(cover).toContain(text);
      }
      pages.forEach((page, i) => {
        expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
        expect(page).toContain(`SHA-256 ${digest}`);
      });
      const text = pages.join('\n');
      doc.sections.forEach((section: { title: string; controls: string[] }, i: number) => {
        expect(text).toContain(`${i + 1}. ${section.title}`);
        expect(text).toContain(section.controls[0]);
      });
      expect(text).toMatch(/mallory\s+10\.0\.0\.9\s+4\s/);
      expect(text).toMatch(/\balice\s+4\s+1\s/);
      expect(text).toContain('Zoë ?? ?');
      expect(text).toContain('Überweisungen');
      // The HTML prints the same digest.
      expect(await (await get('html')).text()).toContain(digest);

      const jsonOnly = await generate('sox', [p], ['json']);
      const refused = await api('GET', `/v1/reports/${jsonOnly.id}/download?format=pdf`);
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('report_format_not_requested');
    });

    it('refuses a period that ends before it starts (422), an unknown type (400) and an unknown report (404)', async () => {
      const bad = await api('POST', '/v1/reports', { type: 'sox', period_start: end.toISOString(), period_end: start.toISOString() });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].field).toBe('period_end');
      expect((await api('POST', '/v1/reports', { type: 'iso27001', period_start: start.toISOString(), period_end: end.toISOString() })).status).toBe(400);
      expect((await api('GET', '/v1/reports/rpt_nope')).status).toBe(404);
    });
  });

  describe('alerts in reports', () => {
    // Alerts seeded in delivery's table with exact times, on a day no other test uses.
    const c = `db_alr_c_${run}`;
    const d = `db_alr_d_${run}`;
    const e = `db_alr_e_${run}`;
    const start = new Date(Date.now() - 5 * 86_400_000);
    start.setUTCHours(0, 0, 0, 0);
    const end = new Date(start.getTime() + 86_400_000);
    const t = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const id = (name: string) => `alt_${run}_${name}`;

    beforeAll(async () => {
      const seed = async (name: string, db: string, f: { type: string; severity: string; status: string; seen: Date; occurrences?: number; ack?: number; resolve?: number; escalated?: boolean }) => {
        const created = new Date(f.seen.getTime() + 1000);
        const after = (seconds?: number) => (seconds === undefined ? null : new Date(created.getTime() + seconds * 1000));
        await system.db.query(
          `INSERT INTO delivery.alerts (id, dedup_key, type, severity, status, title, description, database_id, policy_id, occurrences, context,
                                        first_seen_at, last_seen_at, acknowledged_at, resolved_at, escalated_at, created_at, updated_at)
           VALUES ($1, $1, $2, $3, $4, $5, 'seeded', $6, 'pol_seeded', $7, '{}', $8, $8, $9, $10, $11, $12, $12)`,
          [id(name), f.type, f.severity, f.status, `Alert ${name}`, db, f.occurrences ?? 1, f.seen, after(f.ack), after(f.resolve), f.escalated ? after(30) : null, created],
        );
      };
      await seed('c1', c, { type: 'policy_violation', severity: 'critical', status: 'resolved', seen: t(3600), occurrences: 3, ack: 120, resolve: 3600, escalated: true });
      await seed('c2', c, { type: 'anomaly_detection', severity: 'high', status: 'acknowledged', seen: t(7200), ack: 240 });
      await seed('d1', d, { type: 'classification_alert', severity: 'medium', status: 'open', seen: t(600), occurrences: 2 });
      await seed('d2', d, { type: 'threshold_breach', severity: 'info', status: 'open', seen: start });
      // Outside the period (end exclusive) or the databases: never counted in [c, d] reports.
      await seed('c_late', c, { type: 'policy_violation', severity: 'critical', status: 'open', seen: end });
      await seed('d_early', d, { type: 'policy_violation', severity: 'critical', status: 'open', seen: new Date(start.getTime() - 1) });
      await seed('e1', e, { type: 'policy_violation', severity: 'critical', status: 'open', seen: t(9000) });
    });

    const generate = async (type: string, databases: string[]) => {
      const created = await api('POST', '/v1/reports', { type, period_start: start.toISOString(), period_end: end.toISOString(), databases });
      expect(created.status).toBe(202);
      const report = await waitFor(async () => {
        const r = await api('GET', `/v1/reports/${created.body.id}`);
        return r.body.status === 'completed' ? r.body : r.body.status === 'failed' ? Promise.reject(new Error(r.body.error)) : undefined;
      }, 30_000, `${type} report`);
      const doc = (await api('GET', `/v1/reports/${report.id}/download?format=json`)).body;
      return { report, alerts: doc.sections.find((s: { id: string }) => s.id === 'alerts') };
    };

    const expected = {
      alerts: 4,
      severity_critical: 1,
      severity_high: 1,
      severity_medium: 1,
      severity_low: 0,
      severity_info: 1,
      status_open: 2,
      status_acknowledged: 1,
      status_resolved: 1,
      type_policy_violation: 1,
      type_anomaly_detection: 1,
      type_threshold_breach: 1,
      type_classification_alert: 1,
      databases: 2,
      occurrences: 7,
      escalated: 1,
      with_acknowledgement: 2,
      mean_seconds_to_acknowledge: 180,
      max_seconds_to_acknowledge: 240,
      with_resolution: 1,
      mean_seconds_to_resolve: 3600,
      max_seconds_to_resolve: 3600,
    };

    it.each([
      ['pci_dss', ['PCI DSS 10.4.3', 'PCI DSS 10.7.3']],
      ['sox', ['SOX §404 ITGC: monitoring', 'COBIT DSS02.01']],
      ['hipaa', ['45 CFR 164.308(a)(6)(ii)']],
      ['gdpr', ['GDPR Art. 33', 'GDPR Art. 33(5)']],
    ])('%s: the alerts of the period and databases, per severity, status and type, with response times and the most severe listed', async (type, controls) => {
      const { report, alerts } = await generate(type, [c, d]);
      expect(report.summary.alerts).toBe(4);
      expect(alerts).toMatchObject({ available: true, controls, truncated: false });
      expect(alerts.metrics).toEqual(expected);
      expect(alerts.columns.slice(0, 6)).toEqual(['alert_id', 'severity', 'status', 'type', 'title', 'database_id']);
      expect(alerts.rows.map((r: unknown[]) => r[0])).toEqual([id('c1'), id('c2'), id('d1'), id('d2')]);
      const c1 = Object.fromEntries(alerts.columns.map((col: string, i: number) => [col, alerts.rows[0][i]]));
      expect(c1).toMatchObject({
        severity: 'critical',
        status: 'resolved',
        type: 'policy_violation',
        database_id: c,
        policy_id: 'pol_seeded',
        occurrences: 3,
        first_seen_at: t(3600).toISOString(),
        acknowledged_at: new Date(t(3601).getTime() + 120_000).toISOString(),
        resolved_at: new Date(t(3601).getTime() + 3_600_000).toISOString(),
      });
    });

    it('one database, and every database, in CSV and HTML too', async () => {
      const one = await generate('sox', [d]);
      expect(one.alerts.metrics).toMatchObject({ alerts: 2, severity_medium: 1, severity_info: 1, status_open: 2, with_acknowledgement: 0, databases: 1 });
      expect(one.alerts.metrics).not.toHaveProperty('mean_seconds_to_acknowledge');
      expect(one.alerts.rows.map((r: unknown[]) => r[0])).toEqual([id('d1'), id('d2')]);

      const all = await generate('pci_dss', []);
      expect(all.alerts.metrics).toMatchObject({ alerts: 5, severity_critical: 2, databases: 3 });
      // Equal severity: newest first.
      expect(all.alerts.rows.map((r: unknown[]) => r[0])).toEqual([id('e1'), id('c1'), id('c2'), id('d1'), id('d2')]);

      const download = async (format: string) =>
        (await fetch(`${system.gatewayUrl}/v1/reports/${all.report.id}/download?format=${format}`, { headers: { authorization: `Bearer ${token}` } })).text();
      const csv = await download('csv');
      expect(csv).toContain('alerts,alerts,5\r\n');
      expect(csv).toContain('alerts,severity_critical,2\r\n');
      expect(csv).toContain(`alerts,PCI DSS 10.4.3; PCI DSS 10.7.3,${id('e1')},critical,open,policy_violation,Alert e1,${e},`);
      const html = await download('html');
      expect(html).toContain('<td>PCI DSS 10.4.3<br>PCI DSS 10.7.3</td><td>Included</td>');
      expect(html).toContain('<b>3 min</b> mean time to acknowledge');
      expect(html).toContain(id('e1'));
    });
  });

  describe('schedules', () => {
    it('validates cron and time zone (422) and needs read:reports to view', async () => {
      const bad = await api('POST', '/v1/report-schedules', { name: `bad ${run}`, type: 'sox', cron: '0 25 * * *', timezone: 'Mars/Base' });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cron', 'timezone']);
      const other = await userWithScopes(system.gatewayUrl, token, ['read:databases']);
      expect((await api('GET', '/v1/report-schedules', undefined, other.token)).status).toBe(403);
    });

    it('needs write:reports to delete reports and to create, change or delete schedules; read:reports still views and generates', async () => {
      const reader = await apiKey(system.gatewayUrl, token, ['read:reports']);
      const writer = await apiKey(system.gatewayUrl, token, ['write:reports']);
      const period = { period_start: '2026-01-01T00:00:00Z', period_end: '2026-01-02T00:00:00Z' };
      const generated = await api('POST', '/v1/reports', { type: 'sox', ...period, formats: ['json'] }, reader.key);
      expect(generated.status).toBe(202);
      expect((await api('GET', `/v1/reports/${generated.body.id}`, undefined, reader.key)).status).toBe(200);
      const expectWriteScope = (response: { status: number; body: any; headers: Headers }) => {
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: 'insufficient_scope', status: 403 });
        expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write:reports"');
      };
      expectWriteScope(await api('DELETE', `/v1/reports/${generated.body.id}`, undefined, reader.key));
      expectWriteScope(await api('POST', '/v1/report-schedules', { name: `scoped ${run}`, type: 'sox', cron: '0 6 1 * *', enabled: false }, reader.key));
      const schedule = await api('POST', '/v1/report-schedules', { name: `scoped ${run}`, type: 'sox', cron: '0 6 1 * *', enabled: false }, writer.key);
      expect(schedule.status).toBe(201);
      expect((await api('GET', `/v1/report-schedules/${schedule.body.id}`, undefined, reader.key)).status).toBe(200);
      expectWriteScope(await api('PATCH', `/v1/report-schedules/${schedule.body.id}`, { enabled: true }, reader.key));
      expectWriteScope(await api('DELETE', `/v1/report-schedules/${schedule.body.id}`, undefined, reader.key));
      expect((await api('DELETE', `/v1/report-schedules/${schedule.body.id}`, undefined, writer.key)).status).toBe(200);
      expect((await api('DELETE', `/v1/reports/${generated.body.id}`, undefined, writer.key)).status).toBe(200);
    });

    it('takes pdf among its formats, and every format when none is named', async () => {
      const base = { type: 'sox', cron: '0 6 1 * *', enabled: false };
      const pdfOnly = await api('POST', '/v1/report-schedules', { ...base, name: `pdf ${run}`, formats: ['pdf'] });
      expect(pdfOnly.status).toBe(201);
      expect(pdfOnly.body.formats).toEqual(['pdf']);
      const all = await api('POST', '/v1/report-schedules', { ...base, name: `all ${run}` });
      expect(all.body.formats).toEqual(['json', 'csv', 'html', 'pdf']);
      const unknown = await api('POST', '/v1/report-schedules', { ...base, name: `docx ${run}`, formats: ['docx'] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].field).toMatch(/^formats/);
      expect((await api('GET', `/v1/reports/rpt_nope/download?format=docx`)).status).toBe(400);
    });
  });

  // Last: it stops the delivery service.
  describe('delivery unreachable', () => {
    it('a report does not complete without its alerts: it ends failed, saying why', async () => {
      await system.services.find((s) => s.name === 'delivery')!.stop();
      const day = new Date(Date.now() - 86_400_000);
      const created = await api('POST', '/v1/reports', { type: 'hipaa', period_start: day.toISOString(), period_end: new Date().toISOString() });
      expect(created.status).toBe(202);
      const report = await waitFor(async () => {
        const r = await api('GET', `/v1/reports/${created.body.id}`);
        return r.body.status === 'failed' || r.body.status === 'completed' ? r.body : undefined;
      }, 60_000, 'report to end');
      expect(report.status).toBe('failed');
      expect(report.error).toMatch(/^Alerts could not be read from the delivery service \(The delivery service is unavailable\.\) after \d+ attempt\(s\)/);
      expect(report.error).toContain('request it again once the delivery service is reachable');
      expect(report.summary ?? null).toBeNull();
      const download = await api('GET', `/v1/reports/${report.id}/download?format=json`);
      expect(download.status).toBe(409);
      expect(download.body.code).toBe('report_not_ready');
    });
  });
});
