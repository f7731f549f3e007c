import { randomBytes, randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { type SecureContext, TLSSocket } from 'node:tls';
import type { AuditEventType } from '@vigil/contracts';
import type { Logger } from '@vigil/platform';
import { type CaptureBuffer, serializeRecord } from '../capture/capture-buffer';
import { type ActiveMaskRule, type Decision, type Enforcer, type SessionIdentity, ShapeDecisions } from '../enforcement/enforcer';
import type { Catalog } from '../masking/catalog';
import { type ColumnMask, maskRow, planMasks } from '../masking/masking';
import { moveTaint, plainOutputs, type ProtectionView, protectionView, readTaint, type SessionNames, sharedProtectionView, statementTaint, type Taint } from '../masking/protection';
import { maskNotification, scrubNotice } from '../masking/scrub';
import {
  backendKeyData,
  decodeBind,
  decodeFunctionCall,
  decodeDataRow,
  decodeFields,
  decodeParse,
  decodeRowDescription,
  decodeStartup,
  encodeDataRow,
  encodeStartup,
  errorResponse,
  GSSENC_REQUEST,
  joinMessages,
  type Message,
  MessageReader,
  MessageWriter,
  parse as parseMessage,
  PROTOCOL_V3,
  query as queryMessage,
  rowsOfTag,
  SSL_REQUEST,
} from '../protocol/messages';
import { mayHoldSeveralStatements, type SqlAnalyzer, type StatementInfo } from '../sql/sql-analyzer';
import { captureQuery } from '../sql/capture-limit';
import type { Redactor } from '../sql/redaction';
import type { ProxyMetrics } from './proxy.metrics';
import { openUpstream, readsThroughOnread } from './upstream';
import { type UpstreamTls, type UpstreamTlsMode, UpstreamTlsError } from './upstream-tls';

/**
 * A statement the server rejects during parse analysis (an invalid integer literal), with no
 * effect. The proxy sends it in place of a blocked statement so that the server itself fails at
 * that point: inside a transaction block the transaction is aborted on the server exactly as the
 * client is told, and in the extended protocol the server skips to Sync as after any error. The
 * server's error is then replaced by the policy's (SQLSTATE 42501).
 */
const BLOCK_SQL = "SELECT 'vigil: blocked by policy'::pg_catalog.int4";
/** Cached Parse-time decisions are reused at Execute while the policies have not changed, this long. */
const DECISION_REUSE_MS = 1000;
/** Statements that define, drop or replace session-level prepared statements and cursors. */
const SESSION_NAMES = /\b(?:prepare|deallocate|declare|close|discard)\b/i;
/** Statements that run or define code the proxy cannot see, refused under data protection. */
const CODE_DEFINING = new Set(['DoStmt', 'CreateFunctionStmt', 'CreateTrigStmt', 'RuleStmt', 'CreateEventTrigStmt']);

export interface ProxyConfigView {
  upstreamHost: string;
  upstreamPort: number;
  /** The server's Unix-domain socket file, used instead of host:port when set. */
  upstreamSocket?: string;
  /** TLS toward the server (resolveUpstreamTls): the sessions' leg and the catalog connection alike. */
  upstreamTls: UpstreamTlsMode;
  /** Why that mode (explicit, implied by the CA file, or the default for where the server is): for the start log. */
  upstreamTlsChosen?: UpstreamTls['chosen'];
  /** The CA certificates of PROXY_UPSTREAM_TLS_CA_FILE (verify-full). */
  upstreamCa?: Buffer;
  tlsMode: 'disabled' | 'allowed' | 'required';
  tlsContext?: SecureContext;
  captureParameters: boolean;
  maskComputed: 'mask' | 'refuse';
  /**
   * Fast-path FunctionCall messages: `judge` (policies evaluate every call; while data protection
   * applies, calls of functions that read data by themselves or are not built-in are refused) or
   * `refuse` (every call refused).
   */
  functionCalls?: 'judge' | 'refuse';
  /**
   * Replaces secrets (role passwords, pgcrypto keys, configured patterns) in the query text of
   * records. Enforcement inside the proxy judges the original text; every record that leaves the
   * proxy, and so the pipeline's policy evaluation of it, carries the redacted text.
   */
  redactor: Redactor;
  databaseId(name: string): string;
}

export interface SessionDeps {
  config: ProxyConfigView;
  enforcer: Enforcer;
  analyzer: SqlAnalyzer;
  catalog: Catalog;
  capture: CaptureBuffer;
  metrics: ProxyMetrics;
  logger: Logger;
  /** Policies loaded (sessions wait for them at start). */
  policiesReady(): Promise<boolean>;
  registerCancelKey(session: Session): void;
  unregister(session: Session): void;
  instance: string;
}

interface StatementState {
  text: string;
  /** The statement's taint when judged under data protection: null proven clean, undefined not judged. */
  taint?: Taint | null;
  decision?: { at: number; generation: number; value: Decision };
  paramCount: number;
  fields?: ReturnType<typeof decodeRowDescription>;
}

interface PortalState {
  statement: StatementState;
  params: (Buffer | null)[];
  resultFormats: number[];
  fields?: ReturnType<typeof decodeRowDescription>;
}

/** Result of one statement as it streams back. */
interface ResultState {
  text: string;
  info?: StatementInfo;
  startedAt: bigint;
  plan?: (ColumnMask | undefined)[];
  maskedValues: number;
  rows: number;
  shadowMask?: string[];
  blocked?: Decision['block'];
  decision?: Decision;
  params?: (Buffer | null)[];
  planned?: boolean;
  /** null: proven clean; undefined: not judged under data protection (treated as tainted). */
  taint?: Taint | null;
  /** A fast-path FunctionCall: what the record says about it. */
  functionCall?: Record<string, unknown>;
}

type Pending =
  | { kind: 'parse'; statementName: string; state: StatementState; blocked?: Decision['block']; result?: ResultState }
  | { kind: 'bind'; portal: string; state: PortalState }
  | { kind: 'describe'; target: 'S' | 'P'; name: string; sawParams: boolean; injected?: boolean }
  | { kind: 'execute'; portal: PortalState | undefined; result: ResultState }
  | { kind: 'close' }
  | { kind: 'sync' }
  | { kind: 'function'; result: ResultState }
  | { kind: 'query'; statements: ResultState[]; index: number; blocked?: Decision['block'] };

const nowNs = () => process.hrtime.bigint();

/** Size of the buffer the server's bytes are read into (Node's own default per read). */
const READ_BUFFER_BYTES = 64 * 1024;

/** Whether an ErrorResponse or NoticeResponse body has a context ('W') field. */
function hasContext(body: Buffer): boolean {
  let i = 0;
  while (i < body.length && body[i] !== 0) {
    if (body[i] === 0x57) return true;
    const end = body.indexOf(0, i + 1);
    if (end < 0) return false;
    i = end + 1;
  }
  return false;
}

let isoMs = 0;
let isoText = '';
let isoSecond = -1;
let isoPrefix = '';
/**
 * `new Date().toISOString()`: the date and time up to the second formatted once per second, the
 * milliseconds appended (records of one millisecond share one string).
 */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    const second = Math.floor(ms / 1000);
    if (second !== isoSecond) {
      isoSecond = second;
      isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    const fraction = ms - second * 1000;
    isoText = `${isoPrefix}${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}Z`;
  }
  return isoText;
}

/**
 * One client connection and its server connection. Client messages are read, judged and
 * relayed in order; every message that draws an answer is queued in `pending`, so each server
 * message is matched to the request it answers (results to their statement for capture and
 * masking, injected messages' answers swallowed). Asynchronous server messages (notices,
 * notifications, parameter status) pass straight through.
 */
export class Session {
  readonly id = `sess_${randomUUID().replace(/-/g, '')}`;
  /** The key this proxy gave the client (BackendKeyData) and the server's own. */
  readonly proxyPid = randomBytes(4).readInt32BE(0) & 0x7fffffff;
  readonly proxySecret = randomBytes(4);
  serverKey: { pid: number; secret: Buffer } | undefined;

  private client: Socket;
  private server: Socket | undefined;
  private readonly clientReader = new MessageReader();
  private readonly serverReader = new MessageReader();
  private phase: 'startup' | 'auth' | 'ready' | 'closed' = 'startup';
  private identity!: SessionIdentity;
  private databaseName = '';
  private params: Record<string, string> = {};
  private clientTls = false;
  private readonly pending: Pending[] = [];
  /** Captures of finished statements, built once the answer being relayed has been written. */
  private deferred: (() => void)[] = [];
  private readonly statements = new Map<string, StatementState>();
  private readonly portals = new Map<string, PortalState>();
  private txStatus = 'I';
  private serverBusy = false;
  private maskRules: ActiveMaskRule[] = [];
  private maskRulesGeneration = -1;
  private readonly started = Date.now();
  private statementsCount = 0;
  private loggedIn = false;
  /** What the connect-time evaluation found that shadow-mode policies would have refused. */
  private connectDetails: Record<string, unknown> = {};
  private closedResolve!: () => void;
  readonly closed = new Promise<void>((resolve) => (this.closedResolve = resolve));

  constructor(
    socket: Socket,
    private readonly deps: SessionDeps,
  ) {
    this.client = socket;
    this.bindClient(socket);
    socket.setNoDelay(true);
  }

  get sourceIp(): string {
    const raw = this.client.remoteAddress ?? '';
    return raw.startsWith('::ffff:') ? raw.slice(7) : raw;
  }

  get isIdle(): boolean {
    return this.phase === 'ready' && !this.pending.length && this.txStatus === 'I';
  }

  private bindClient(socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onClientData(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  // ---------------------------------------------------------------- startup

  private onClientData(chunk: Buffer) {
    const t0 = nowNs();
    this.clientReader.push(chunk);
    try {
      if (this.phase === 'startup') this.readStartup();
      else this.readClientMessages();
    } catch (error) {
      this.deps.logger.warn({ err: error, session_id: this.id }, 'client protocol error');
      this.fatal('08P01', `protocol violation: ${(error as Error).message}`);
    }
    this.deps.metrics.addedLatency.observe(Number(nowNs() - t0) / 1e9);
  }

  private readStartup(): void {
    const packet = this.clientReader.nextStartup();
    if (!packet) return;
    const decoded = decodeStartup(packet);
    if (decoded.code === SSL_REQUEST) {
      if (this.clientTls || this.deps.config.tlsMode === 'disabled' || !this.deps.config.tlsContext) {
        this.client.write('N');
        return this.readStartup();
      }
      if (this.clientReader.pending) throw new Error('data after SSLRequest');
      this.client.write('S');
      this.upgradeClient();
      return;
    }
    if (decoded.code === GSSENC_REQUEST) {
      this.client.write('N');
      return this.readStartup();
    }
    if (decoded.cancel) {
      this.deps.logger.debug({ pid: decoded.cancel.pid }, 'cancel request');
      this.onCancel?.(decoded.cancel.pid, decoded.cancel.secret);
      this.client.end();
      this.phase = 'closed';
      return;
    }
    if (decoded.code !== PROTOCOL_V3 && decoded.code >> 16 !== 3) {
      return this.fatal('0A000', `unsupported frontend protocol ${decoded.code >> 16}.${decoded.code & 0xffff}`);
    }
    if (this.deps.config.tlsMode === 'required' && !this.clientTls) {
      return this.fatal('28000', 'the Vigil proxy requires TLS (sslmode=require)');
    }
    this.params = decoded.startup!.params;
    this.phase = 'auth';
    void this.begin(decoded.code);
  }

  /** Set by the server: routes a CancelRequest received on this connection. */
  onCancel?: (pid: number, secret: Buffer) => void;

  private upgradeClient() {
    const plain = this.client;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    plain.removeAllListeners('error');
    const secure = new TLSSocket(plain, { isServer: true, secureContext: this.deps.config.tlsContext });
    this.client = secure;
    this.clientTls = true;
    this.bindClient(secure);
    secure.on('error', () => this.close());
  }

  private async begin(protocol: number) {
    const user = this.params.user ?? '';
    this.databaseName = this.params.database ?? user;
    this.identity = {
      databaseId: this.deps.config.databaseId(this.databaseName),
      user,
      sourceIp: this.sourceIp,
      application: this.params.application_name || undefined,
      sessionId: this.id,
    };
    if (!(await this.deps.policiesReady())) {
      this.record('user.login_failed', { error: { code: '57P03', message: 'policies not loaded' } }, 'warning');
      return this.fatal('57P03', 'the Vigil proxy has not loaded its policies yet; retry shortly');
    }
    if (!this.deps.capture.admits(this.identity.databaseId)) {
      return this.fatal('53000', 'audit capture is unavailable and this database is fail-closed');
    }
    const decision = this.deps.enforcer.evaluate(this.identity, 'database.connection');
    if (decision.block) {
      this.deps.metrics.blocked.inc({ kind: 'connection' });
      this.record('user.login_failed', { blocked: true, error: { code: decision.block.code ?? '42501', message: decision.block.message }, ...this.enforcementDetails(decision) }, 'warning');
      return this.fatal('42501', decision.block.message);
    }
    this.connectDetails = this.enforcementDetails(decision);
    try {
      this.server = await openUpstream(this.deps.config, {
        buffer: () => this.readBuffer,
        callback: (n, buffer) => {
          this.onServerData((buffer as Buffer).subarray(0, n));
          return true;
        },
      });
    } catch (error) {
      const tls = error instanceof UpstreamTlsError;
      this.deps.logger.warn({ err: error, session_id: this.id }, tls ? 'upstream TLS failed: connection refused' : 'upstream connection failed');
      this.record('user.login_failed', { error: { code: '08006', message: `${tls ? 'upstream TLS refused' : 'upstream unreachable'}: ${(error as Error).message}` } }, 'warning');
      return this.fatal('08006', tls ? 'the Vigil proxy could not establish a verified TLS connection to the database server' : 'the Vigil proxy could not reach the database server');
    }
    if (this.phase === 'closed') {
      this.server.destroy();
      return;
    }
    this.server.setNoDelay(true);
    if (!readsThroughOnread(this.deps.config)) this.server.on('data', (chunk: Buffer) => this.onServerData(chunk));
    this.server.on('error', () => this.close());
    this.server.on('close', () => this.close());
    this.server.write(encodeStartup(this.params, protocol));
    this.deps.metrics.sessions.inc();
    // Bytes the client sent after its startup packet (pipelined auth) follow now.
    if (this.clientReader.pending) this.readClientMessages();
  }

  // ---------------------------------------------------------------- client -> server

  private readClientMessages() {
    if (!this.server || this.held) return;
    const out: Buffer[] = [];
    let message: Message | undefined;
    while ((message = this.clientReader.next())) {
      if (this.phase === 'auth') {
        out.push(message.raw);
        continue;
      }
      const wait = this.mustWait(message);
      if (wait) {
        // The catalog must answer first (masking's snapshot, a FunctionCall's name): this message
        // and everything after it wait, in order.
        if (out.length) this.server.write(joinMessages(out));
        this.hold(message, wait);
        return;
      }
      this.onClientMessage(message, out);
      if (this.phase === 'closed') return;
    }
    if (out.length) this.server.write(joinMessages(out));
  }

  private held: Message | undefined;

  private hold(message: Message, wait: Promise<unknown>, round = 0) {
    this.held = message;
    this.client.pause();
    void wait
      .catch((error: unknown) => {
        this.snapshotFailedAt = Date.now();
        this.deps.logger.error({ err: error, session_id: this.id }, 'catalog lookup failed; treating every statement of this session as reading protected data');
      })
      .then(() => {
        const next = this.held!;
        this.held = undefined;
        if (this.phase === 'closed' || !this.server) return;
        // A FunctionCall waits for its name, then for the snapshot; a failed lookup is not retried here.
        const again = round < 1 ? this.mustWait(next) : undefined;
        if (again) return this.hold(next, again, round + 1);
        this.client.resume();
        try {
          const out: Buffer[] = [];
          this.onClientMessage(next, out);
          if ((this.phase as string) === 'closed') return;
          if (out.length) this.server.write(joinMessages(out));
          this.readClientMessages();
        } catch (error) {
          this.deps.logger.warn({ err: error, session_id: this.id }, 'client protocol error');
          this.fatal('08P01', `protocol violation: ${(error as Error).message}`);
        }
      });
  }

  /** What a message needs from the catalog before it can be judged, if anything. */
  private mustWait(message: Message): Promise<unknown> | undefined {
    const type = message.type;
    if (type === 'F') {
      const oid = message.body.readUInt32BE(0);
      if (this.deps.catalog.functionNameNow(this.databaseName, oid) === undefined) return this.deps.catalog.functionName(this.databaseName, oid);
    }
    if (type !== 'Q' && type !== 'P' && type !== 'E' && type !== 'F') return undefined;
    this.refreshMaskRules();
    if (!this.maskRules.length || this.deps.catalog.snapshotNow(this.databaseName)) return undefined;
    if (Date.now() - this.snapshotFailedAt < 5000) return undefined;
    return this.deps.catalog.snapshot(this.databaseName);
  }

  private refreshMaskRules() {
    const generation = this.deps.enforcer.store.generation;
    if (generation !== this.maskRulesGeneration) {
      this.maskRules = this.deps.enforcer.maskRules(this.identity);
      this.maskRulesGeneration = generation;
    }
  }

  /** Judges one statement text (all of its statements): the first block wins; shadow results kept. */
  private judge(text: string, infos: StatementInfo[] | null): Decision {
    this.refreshMaskRules();
    const texts = infos ? infos.map((i) => i.text) : [text];
    const merged: Decision = { evaluations: [], wouldBlock: [] };
    for (let i = 0; i < texts.length; i++) {
      const d = this.deps.enforcer.evaluateQuery(this.identity, texts[i]!, this.decisions);
      merged.evaluations.push(...d.evaluations);
      merged.wouldBlock.push(...d.wouldBlock);
      if (d.block && !merged.block) merged.block = d.block;
    }
    if (!this.maskRules.length) {
      if (infos || SESSION_NAMES.test(text)) this.trackNames(infos ?? this.analyze(text));
      return merged;
    }
    const enforced = this.maskRules.some((r) => !r.shadow);
    const view = this.protectionNow();
    // Only texts that may be tainted, define session names or COPY pay for the parser here.
    let analyzed = infos;
    const mayTaint = view.mayTaint(text);
    if (!analyzed && (mayTaint || SESSION_NAMES.test(text) || (enforced && /copy/i.test(text)))) analyzed = this.deps.analyzer.analyzeNumbersBlanked(text);
    this.trackNames(analyzed, view);
    merged.infos = analyzed;
    merged.taints = analyzed ? analyzed.map((info) => statementTaint(view, info, this.names) ?? null) : [mayTaint ? { rule: view.fallback, reason: 'statement not analysed' } : null];
    if (merged.block || !enforced || !analyzed) return merged;
    for (const [i, info] of analyzed.entries()) {
      const taint = merged.taints[i];
      const enforcedTaint = taint && !taint.rule.shadow ? taint : undefined;
      let refusal: string | undefined;
      if (info.copyTo) refusal = 'COPY ... TO is refused while data_protection policies apply to this database (results would bypass masking); use SELECT';
      else if (CODE_DEFINING.has(Object.keys(info.node)[0]!)) refusal = `${info.type} is refused while data_protection policies apply to this session: code the proxy cannot see could copy or print protected values`;
      else {
        const moved = moveTaint(view, info);
        if (moved && !moved.rule.shadow) refusal = `${info.type} would copy protected values (${moved.reason}) out of reach of masking; refused while data_protection policies apply`;
        else if (this.deps.config.maskComputed === 'refuse' && enforcedTaint && !plainOutputs(info)) refusal = `computed expressions over protected data are refused (PROXY_MASK_COMPUTED=refuse): the statement reads ${enforcedTaint.reason}`;
      }
      if (refusal) {
        merged.block = this.proxyBlock(refusal);
        break;
      }
    }
    return merged;
  }

  /** Policy decisions of this session's statements by query shape (Enforcer.evaluateQuery). */
  private readonly decisions = new ShapeDecisions();

  private protection: { view: ProtectionView; snapshot: unknown; generation: number } | undefined;
  /** When the catalog snapshot last failed to load (masking then treats every statement as tainted). */
  private snapshotFailedAt = 0;

  /** The protection of this session's rules over the catalog snapshot (tainting everything when there is none). */
  private protectionNow(): ProtectionView {
    const snapshot = this.deps.catalog.snapshotNow(this.databaseName);
    const generation = this.maskRulesGeneration;
    const cached = this.protection;
    if (cached && cached.snapshot === (snapshot ?? null) && cached.generation === generation) return cached.view;
    const view = snapshot
      ? sharedProtectionView(snapshot, this.maskRules)
      : { ...protectionView({ relations: new Map(), viewDeps: new Map(), userFunctions: new Set(), builtinFunctions: new Set(), parents: new Map(), at: 0 }, this.maskRules), unknown: true, mayTaint: () => true };
    this.protection = { view, snapshot: snapshot ?? null, generation };
    return view;
  }

  /** Forgets prepared statements and cursors the statements drop (or may have replaced unseen). */
  private trackNames(infos: StatementInfo[] | null, view?: ProtectionView) {
    if (!infos) return;
    for (const info of infos) {
      if (info.deallocates !== undefined) {
        if (info.deallocates === '') this.names.prepared.clear();
        else this.names.prepared.delete(info.deallocates);
      }
      if (info.closes !== undefined) {
        if (info.closes === '') this.names.cursors.clear();
        else this.names.cursors.delete(info.closes);
      }
      // Code the proxy cannot see (DO, CALL, functions not built in, DISCARD) may prepare or
      // declare under any name: from now on every name is unknown until defined again.
      const unseen = view ? readTaint(view, { relations: [], functions: info.reads.functions, columns: [], bare: [] }) : info.reads.functions.length;
      if (info.opaque || info.type === 'DISCARD' || unseen) {
        this.names.prepared.clear();
        this.names.cursors.clear();
      }
    }
  }

  /** A name the session defined, once the server accepted the statement. */
  private defineNames(info: StatementInfo | undefined) {
    if (info?.prepares) this.names.prepared.set(info.prepares.name, info.prepares.query);
    if (info?.declares) this.names.cursors.set(info.declares.name, info.declares.query);
  }

  private readonly names: SessionNames = { prepared: new Map(), cursors: new Map() };

  private proxyBlock(message: string, code = '42501'): NonNullable<Decision['block']> {
    return { policyId: '', policyName: 'vigil-proxy', message, evaluation: undefined as never, code };
  }

  private analyze(text: string): StatementInfo[] | null {
    return this.deps.analyzer.analyze(text).statements;
  }

  private onClientMessage(message: Message, out: Buffer[]) {
    switch (message.type) {
      case 'Q':
        return this.onQuery(message, out);
      case 'P':
        return this.onParse(message, out);
      case 'B': {
        const bind = decodeBind(message.body);
        const statement = this.statements.get(bind.statement) ?? { text: '', paramCount: bind.params.length };
        const portal: PortalState = { statement, params: bind.params, resultFormats: bind.resultFormats };
        this.pending.push({ kind: 'bind', portal: bind.portal, state: portal });
        out.push(message.raw);
        return;
      }
      case 'D': {
        const target = String.fromCharCode(message.body[0]!) as 'S' | 'P';
        const name = message.body.toString('utf8', 1, message.body.length - 1);
        this.pending.push({ kind: 'describe', target, name, sawParams: false });
        out.push(message.raw);
        return;
      }
      case 'E':
        return this.onExecute(message, out);
      case 'C': {
        const target = String.fromCharCode(message.body[0]!);
        const name = message.body.toString('utf8', 1, message.body.length - 1);
        if (target === 'S') this.statements.delete(name);
        else this.portals.delete(name);
        this.pending.push({ kind: 'close' });
        out.push(message.raw);
        return;
      }
      case 'S':
        this.pending.push({ kind: 'sync' });
        out.push(message.raw);
        return;
      case 'F':
        return this.onFunctionCall(message, out);
      case 'X':
        out.push(message.raw);
        this.server?.write(Buffer.concat(out));
        out.length = 0;
        this.server?.end();
        this.close();
        return;
      default:
        // Flush, CopyData, CopyDone, CopyFail and anything else: relayed as is.
        out.push(message.raw);
    }
  }

  private onQuery(message: Message, out: Buffer[]) {
    const text = message.body.toString('utf8', 0, message.body.length - 1);
    this.statementsCount++;
    const several = mayHoldSeveralStatements(text);
    const infos = several ? this.analyze(text) : null;
    const decision = this.judge(text, infos);
    const startedAt = nowNs();
    const analyzed = infos ?? decision.infos ?? null;
    const results: ResultState[] = (analyzed && analyzed.length ? analyzed.map((i) => i.text) : [text]).map((t, i) => ({
      text: analyzed && analyzed.length === 1 && !infos ? text : t,
      info: analyzed?.[i],
      startedAt,
      maskedValues: 0,
      rows: 0,
      decision,
      taint: decision.taints?.[i],
    }));
    if (!this.deps.capture.admits(this.identity.databaseId)) {
      decision.block = this.proxyBlock('audit capture is unavailable and this database is fail-closed', '53000');
    }
    if (decision.block) {
      this.deps.metrics.blocked.inc({ kind: 'statement' });
      this.pending.push({ kind: 'query', statements: results, index: 0, blocked: decision.block });
      out.push(queryMessage(BLOCK_SQL));
      return;
    }
    this.pending.push({ kind: 'query', statements: results, index: 0 });
    out.push(message.raw);
  }

  private onParse(message: Message, out: Buffer[]) {
    const parsed = decodeParse(message.body);
    this.statementsCount++;
    const infos = mayHoldSeveralStatements(parsed.text) ? this.analyze(parsed.text) : null;
    const decision = this.judge(parsed.text, infos);
    const state: StatementState = { text: parsed.text, paramCount: parsed.paramTypes.length, decision: { at: Date.now(), generation: this.deps.enforcer.store.generation, value: decision }, taint: decision.taints?.[0] };
    this.statements.set(parsed.name, state);
    if (decision.block) {
      this.deps.metrics.blocked.inc({ kind: 'statement' });
      const result: ResultState = { text: parsed.text, info: decision.infos?.[0], startedAt: nowNs(), maskedValues: 0, rows: 0, decision, blocked: decision.block };
      this.pending.push({ kind: 'parse', statementName: parsed.name, state, blocked: decision.block, result });
      out.push(parseMessage(parsed.name, BLOCK_SQL));
      return;
    }
    this.pending.push({ kind: 'parse', statementName: parsed.name, state });
    out.push(message.raw);
  }

  private onExecute(message: Message, out: Buffer[]) {
    const portalName = message.body.toString('utf8', 0, message.body.indexOf(0));
    const portal = this.pendingPortal(portalName) ?? this.portals.get(portalName);
    const statement = portal?.statement;
    const text = statement?.text ?? '';
    let decision = statement?.decision?.value;
    const cached = statement?.decision;
    if (!cached || cached.generation !== this.deps.enforcer.store.generation || Date.now() - cached.at > DECISION_REUSE_MS) {
      decision = this.judge(text, mayHoldSeveralStatements(text) ? this.analyze(text) : null);
      if (statement) {
        statement.decision = { at: Date.now(), generation: this.deps.enforcer.store.generation, value: decision };
        statement.taint = decision.taints?.[0];
      }
    }
    if (!this.deps.capture.admits(this.identity.databaseId)) {
      decision = { ...decision!, block: this.proxyBlock('audit capture is unavailable and this database is fail-closed', '53000') };
    }
    const result: ResultState = { text, info: decision?.infos?.length === 1 ? decision.infos[0] : undefined, startedAt: nowNs(), maskedValues: 0, rows: 0, decision, params: portal?.params, taint: statement?.taint };
    if (decision?.block) {
      this.deps.metrics.blocked.inc({ kind: 'statement' });
      result.blocked = decision.block;
      // The server fails here (parse of the unnamed statement), and skips to Sync like after any error.
      this.pending.push({ kind: 'execute', portal, result });
      out.push(parseMessage('', BLOCK_SQL));
      return;
    }
    this.refreshMaskRules();
    if (this.maskRules.length && portal && !portal.fields && !portal.statement.fields && !this.pending.some((p) => p.kind === 'describe' && p.target === 'P' && p.name === portalName)) {
      // Masking needs the result's columns; the client did not ask for them, so the proxy does.
      this.pending.push({ kind: 'describe', target: 'P', name: portalName, sawParams: false, injected: true });
      out.push(new MessageWriter().bytes(Buffer.from('P')).cstring(portalName).finish('D'));
    }
    this.pending.push({ kind: 'execute', portal, result });
    out.push(message.raw);
  }

  /**
   * A fast-path FunctionCall ('F'): the function is named from the catalog by its OID and judged
   * as the statement `SELECT schema.name($1, ...)` by the policies; while data protection applies,
   * a call of a function that reads data by itself (query_to_xml and kin, large objects, dblink,
   * files) or is not built in is refused, and with PROXY_FUNCTION_CALLS=refuse every call is.
   * Every call is recorded (`statement_type: FUNCTION CALL`, `function {oid, schema, name, arguments}`).
   */
  private onFunctionCall(message: Message, out: Buffer[]) {
    const call = decodeFunctionCall(message.body);
    this.statementsCount++;
    const named = this.deps.catalog.functionNameNow(this.databaseName, call.oid);
    const qualified = named ? `${named.schema}.${named.name}` : `function_oid_${call.oid}`;
    const text = `SELECT ${qualified}(${call.args.map((_, i) => `$${i + 1}`).join(', ')})`;
    // Policies judge the call with its text arguments as literals (query_to_xml's query is one);
    // the record keeps the placeholders, with the values only under PROXY_CAPTURE_PARAMETERS.
    const literal = (arg: Buffer | null, i: number) => {
      const format = call.argFormats.length === 1 ? call.argFormats[0] : (call.argFormats[i] ?? 0);
      if (arg === null) return 'NULL';
      return format === 0 ? `'${arg.toString('utf8').replace(/'/g, "''")}'` : `$${i + 1}`;
    };
    const decision = this.judge(`SELECT ${qualified}(${call.args.map(literal).join(', ')})`, null);
    const view = this.maskRules.some((r) => !r.shadow) ? this.protectionNow() : undefined;
    const taint = view ? (named ? readTaint(view, { relations: [], functions: [named.schema === 'pg_catalog' ? named.name.toLowerCase() : qualified.toLowerCase()], columns: [], bare: [] }) : { rule: view.fallback, reason: `function ${call.oid} (not in the catalog)` }) : undefined;
    if (!decision.block) {
      if (this.deps.config.functionCalls === 'refuse') decision.block = this.proxyBlock('fast-path function calls are refused by this proxy (PROXY_FUNCTION_CALLS=refuse); call the function in a statement');
      else if (taint && !taint.rule.shadow) decision.block = this.proxyBlock(`fast-path call of ${qualified} refused while data_protection policies apply: it reads data the proxy cannot mask; call it in a statement`);
    }
    if (!this.deps.capture.admits(this.identity.databaseId)) decision.block = this.proxyBlock('audit capture is unavailable and this database is fail-closed', '53000');
    const result: ResultState = {
      text,
      startedAt: nowNs(),
      maskedValues: 0,
      rows: 0,
      decision,
      params: call.args,
      taint: taint ?? null,
      functionCall: { oid: call.oid, schema: named?.schema ?? null, name: named?.name ?? null, arguments: call.args.length },
    };
    if (decision.block) {
      this.deps.metrics.blocked.inc({ kind: 'statement' });
      result.blocked = decision.block;
      // As for a blocked query: the server fails a statement in its place (ErrorResponse, then ReadyForQuery).
      this.pending.push({ kind: 'query', statements: [result], index: 0, blocked: decision.block });
      out.push(queryMessage(BLOCK_SQL));
      return;
    }
    this.pending.push({ kind: 'function', result });
    out.push(message.raw);
  }

  /** A portal bound earlier in the same pipeline (its BindComplete not yet seen). */
  private pendingPortal(name: string): PortalState | undefined {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const p = this.pending[i]!;
      if (p.kind === 'bind' && p.portal === name) return p.state;
    }
    return undefined;
  }

  // ---------------------------------------------------------------- server -> client

  private onServerData(chunk: Buffer) {
    this.serverReader.push(chunk);
    if (!this.serverBusy) {
      this.serverBusy = true;
      // Synchronous unless a message must wait (a masking catalog lookup): no promise per chunk.
      const waiting = this.drainServer(this.serverOut);
      if (waiting) void waiting.finally(() => (this.serverBusy = false));
      else this.serverBusy = false;
    }
    // The server's bytes are read into `readBuffer` again and again (plaintext upstream). Views of
    // it that outlive this call (an incomplete message, messages waiting for the catalog, a write
    // to the client not yet done) keep this buffer: later reads go to a new one.
    if (this.serverReader.pending || this.serverBusy || this.client.writableLength > 0) this.readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  }

  /** Where the server's bytes are read (see onServerData). */
  private readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  private readonly serverOut: Buffer[] = [];

  private flushServerOut(out: Buffer[]) {
    if (out.length) this.client.write(joinMessages(out));
    out.length = 0;
  }

  /** Relays what the server sent; returns a promise only when it had to wait (then it continues asynchronously). */
  private drainServer(out: Buffer[]): Promise<void> | undefined {
    const t0 = nowNs();
    try {
      return this.drainServerMessages(out, t0);
    } finally {
      this.runDeferred();
    }
  }

  private drainServerMessages(out: Buffer[], t0: bigint): Promise<void> | undefined {
    try {
      let message: Message | undefined;
      while ((message = this.serverReader.next())) {
        if (this.phase === 'closed') {
          out.length = 0;
          return undefined;
        }
        const wait = this.phase === 'auth' ? this.onAuthMessage(message, out) : this.onServerMessage(message, out);
        if (wait) {
          this.deps.metrics.addedLatency.observe(Number(nowNs() - t0) / 1e9);
          this.flushServerOut(out);
          this.server?.pause();
          return this.resumeAfter(wait, out);
        }
        if (out.length > 64) this.flushServerOut(out);
      }
      this.deps.metrics.addedLatency.observe(Number(nowNs() - t0) / 1e9);
    } catch (error) {
      this.serverError(error, out);
      return undefined;
    }
    this.flushServerOut(out);
    return undefined;
  }

  private async resumeAfter(wait: Promise<void>, out: Buffer[]): Promise<void> {
    try {
      await wait;
    } catch (error) {
      this.serverError(error, out);
      return;
    }
    this.server?.resume();
    const more = this.drainServer(out);
    if (more) await more;
  }

  private serverError(error: unknown, out: Buffer[]) {
    this.deps.logger.warn({ err: error, session_id: this.id }, 'server protocol error');
    this.flushServerOut(out);
    this.fatal('08P01', `proxy error: ${(error as Error).message}`);
  }

  private onAuthMessage(message: Message, out: Buffer[]): Promise<void> | void {
    switch (message.type) {
      case 'R': {
        const code = message.body.readInt32BE(0);
        if (code === 0) {
          this.loggedIn = true;
          this.record('user.login_success', { authentication: 'ok' });
          this.record('database.connection', this.connectDetails);
        } else if (code === 10) {
          // SASL: channel binding cannot survive a proxy (the TLS sessions differ on each side), so
          // SCRAM-SHA-256-PLUS is not offered to the client.
          const mechanisms = message.body.toString('utf8', 4).split('\0').filter((m) => m && m !== 'SCRAM-SHA-256-PLUS');
          const w = new MessageWriter().int32(10);
          for (const m of mechanisms) w.cstring(m);
          out.push(w.cstring('').finish('R'));
          return;
        }
        out.push(message.raw);
        return;
      }
      case 'K':
        this.serverKey = { pid: message.body.readInt32BE(0), secret: Buffer.from(message.body.subarray(4)) };
        this.deps.registerCancelKey(this);
        out.push(backendKeyData(this.proxyPid, this.proxySecret));
        return;
      case 'E': {
        const fields = decodeFields(message.body);
        this.record('user.login_failed', { error: { code: fields.C, message: fields.M } }, 'warning');
        out.push(message.raw);
        return;
      }
      case 'Z':
        this.phase = 'ready';
        this.txStatus = String.fromCharCode(message.body[0]!);
        out.push(message.raw);
        return;
      default:
        out.push(message.raw);
    }
  }

  private onServerMessage(message: Message, out: Buffer[]): Promise<void> | void {
    const head = this.pending[0];
    switch (message.type) {
      case 'N': {
        const taint = this.protectedTaint(head, message.body);
        out.push(taint === undefined ? message.raw : scrubNotice('N', message.body, taint.opaque));
        return;
      }
      case 'A':
        // Payloads may come from any session or trigger: under data protection they are masked.
        out.push(this.enforcedProtection() ? maskNotification(message.body) : message.raw);
        return;
      case 'S':
        out.push(message.raw);
        return;
      case '1':
        this.pending.shift();
        out.push(message.raw);
        return;
      case '2': {
        const p = this.pending.shift();
        if (p?.kind === 'bind') this.portals.set(p.portal, p.state);
        out.push(message.raw);
        return;
      }
      case '3':
        this.pending.shift();
        out.push(message.raw);
        return;
      case 't':
        if (head?.kind === 'describe') head.sawParams = true;
        out.push(message.raw);
        return;
      case 'n':
        if (head?.kind === 'describe') {
          this.pending.shift();
          if (head.injected) return;
        }
        out.push(message.raw);
        return;
      case 'T': {
        const fields = decodeRowDescription(message.body);
        if (head?.kind === 'describe') {
          this.pending.shift();
          if (head.target === 'S') {
            const s = this.statements.get(head.name);
            if (s) s.fields = fields;
          } else {
            const portal = this.pendingPortal(head.name) ?? this.portals.get(head.name);
            if (portal) portal.fields = fields;
          }
          if (!head.injected) out.push(message.raw);
          return;
        }
        if (head?.kind === 'query') {
          const result = head.statements[head.index];
          out.push(message.raw);
          if (result) return this.preparePlan(result, fields);
          return;
        }
        out.push(message.raw);
        return;
      }
      case 'D': {
        const result = this.currentResult(head);
        if (head?.kind === 'execute' && !head.result.planned) {
          head.result.planned = true;
          const fields = head.portal?.fields ?? head.portal?.statement.fields;
          const wait = fields ? this.preparePlan(head.result, fields) : undefined;
          if (wait) return wait.then(() => this.onServerMessage(message, out));
        }
        if (result) {
          result.rows++;
          if (result.plan) {
            const values = decodeDataRow(message.body);
            const masked = maskRow(values, result.plan);
            if (masked) {
              result.maskedValues += masked;
              out.push(encodeDataRow(values));
              return;
            }
          }
        }
        out.push(message.raw);
        return;
      }
      case 'C':
      case 'I':
      case 's': {
        const tag = message.type === 'C' ? message.body.toString('utf8', 0, message.body.length - 1) : undefined;
        if (head?.kind === 'execute') {
          this.pending.shift();
          this.finish(head.result, { tag, suspended: message.type === 's' });
        } else if (head?.kind === 'query') {
          const result = head.statements[head.index];
          if (result) this.finish(result, { tag });
          head.index++;
        }
        out.push(message.raw);
        return;
      }
      case 'E': {
        const fields = decodeFields(message.body);
        const scrub = this.protectedTaint(head, message.body);
        const raw = scrub === undefined ? message.raw : scrubNotice('E', message.body, scrub.opaque);
        if (head?.kind === 'function') {
          this.finish(head.result, { error: { code: fields.C ?? '', message: scrub === undefined ? (fields.M ?? '') : 'withheld (protected data)' } });
          out.push(raw);
          return;
        }
        if (head?.kind === 'query') {
          const result = head.statements[head.index];
          if (head.blocked) {
            out.push(errorResponse({ code: head.blocked.code ?? '42501', message: head.blocked.message, detail: this.blockDetail(head.blocked) }));
            for (const r of head.statements) this.finish(r, { blocked: head.blocked, error: { code: head.blocked.code ?? '42501', message: head.blocked.message } });
            head.index = head.statements.length;
            return;
          }
          if (result) this.finish(result, { error: { code: fields.C ?? '', message: scrub === undefined ? (fields.M ?? '') : 'withheld (protected data)' } });
          for (const r of head.statements.slice(head.index + 1)) this.finish(r, { error: { code: '', message: 'not executed: an earlier statement of the string failed' } });
          head.index = head.statements.length;
          out.push(raw);
          return;
        }
        // Extended protocol: the failed request, and the server skips every message up to Sync.
        const failed = this.pending.shift();
        let replaced = false;
        if (failed?.kind === 'parse' && failed.blocked) {
          out.push(errorResponse({ code: failed.blocked.code ?? '42501', message: failed.blocked.message, detail: this.blockDetail(failed.blocked) }));
          this.statements.delete(failed.statementName);
          if (failed.result) this.finish(failed.result, { blocked: failed.blocked, error: { code: failed.blocked.code ?? '42501', message: failed.blocked.message } });
          replaced = true;
        } else if (failed?.kind === 'execute') {
          const blocked = failed.result.blocked;
          if (blocked) {
            out.push(errorResponse({ code: blocked.code ?? '42501', message: blocked.message, detail: this.blockDetail(blocked) }));
            this.statements.delete('');
            replaced = true;
          }
          this.finish(failed.result, { blocked, error: blocked ? { code: blocked.code ?? '42501', message: blocked.message } : { code: fields.C ?? '', message: scrub === undefined ? (fields.M ?? '') : 'withheld (protected data)' } });
        } else if (failed?.kind === 'parse') {
          this.finish({ text: failed.state.text, startedAt: nowNs(), maskedValues: 0, rows: 0 }, { error: { code: fields.C ?? '', message: fields.M ?? '' } });
        }
        while (this.pending.length && this.pending[0]!.kind !== 'sync') {
          const skipped = this.pending.shift()!;
          if (skipped.kind === 'execute' && skipped.result.blocked) this.finish(skipped.result, { blocked: skipped.result.blocked, error: { code: skipped.result.blocked.code ?? '42501', message: skipped.result.blocked.message } });
        }
        if (!replaced) out.push(raw);
        return;
      }
      case 'Z': {
        this.txStatus = String.fromCharCode(message.body[0]!);
        const p = this.pending.shift();
        if (p?.kind === 'query') for (const r of p.statements.slice(p.index)) this.finish(r, {});
        if (p?.kind === 'function') this.finish(p.result, {});
        out.push(message.raw);
        return;
      }
      case 'V':
        if (head?.kind === 'function') head.result.rows++;
        out.push(message.raw);
        return;
      default:
        // CopyInResponse, CopyOutResponse, CopyBothResponse, CopyData, CopyDone, ...
        if (message.type === 'd') {
          const result = this.currentResult(head);
          if (result) result.rows++;
        }
        out.push(message.raw);
    }
  }

  private currentResult(head: Pending | undefined): ResultState | undefined {
    if (head?.kind === 'query') return head.statements[head.index];
    if (head?.kind === 'execute') return head.result;
    return undefined;
  }

  /** Before the rows of a result: its row description decides the masks (masking.ts planMasks). */
  private preparePlan(result: ResultState, fields: ReturnType<typeof decodeRowDescription>, reloaded = false): Promise<void> | void {
    this.refreshMaskRules();
    if (!this.maskRules.length) return;
    if (!this.deps.catalog.snapshotNow(this.databaseName) && Date.now() - this.snapshotFailedAt >= 5000) {
      return this.deps.catalog.snapshot(this.databaseName).then(
        () => this.preparePlan(result, fields, reloaded),
        (error: unknown) => {
          this.snapshotFailedAt = Date.now();
          this.deps.logger.error({ err: error, session_id: this.id }, 'catalog lookup failed; masking every column of this result');
          return this.preparePlan(result, fields, true);
        },
      );
    }
    const view = this.protectionNow();
    // A relation created since the snapshot (outside the proxy): read the catalog again, once.
    if (!reloaded && !view.unknown && fields.some((f) => f.tableOid !== 0 && !view.snapshot.relations.has(f.tableOid))) {
      this.deps.catalog.invalidate(this.databaseName);
      return this.preparePlan(result, fields, true);
    }
    const taint = result.taint === undefined ? { rule: view.fallback, reason: 'a statement not judged under data protection' } : (result.taint ?? undefined);
    result.plan = planMasks(fields, view, taint);
    if (result.plan?.some((m) => m?.rule.shadow)) result.shadowMask = result.plan.filter((m) => m?.rule.shadow).map((m) => m!.column);
  }

  /** Whether enforced (not shadow) data protection applies to this session now. */
  private enforcedProtection(): boolean {
    this.refreshMaskRules();
    return this.maskRules.some((r) => !r.shadow);
  }

  /**
   * For errors and notices: the taint of the statement being answered when enforced protection
   * applies and the statement is not proven clean (undefined: relay as sent). A message from
   * inside a function, DO block or trigger is withheld whole (`opaque`).
   */
  private protectedTaint(head: Pending | undefined, body: Buffer): { opaque: boolean } | undefined {
    if (!this.enforcedProtection()) return undefined;
    // Raised inside a function or trigger (a context field): whatever the statement, the function
    // chose the text, and it may have read protected data.
    if (hasContext(body)) return { opaque: true };
    let taint: Taint | null | undefined;
    let info: StatementInfo | undefined;
    if (head?.kind === 'query') {
      const r = head.statements[Math.min(head.index, head.statements.length - 1)];
      taint = r?.taint;
      info = r?.info;
    } else if (head?.kind === 'execute' || head?.kind === 'function') {
      taint = head.result.taint;
      info = head.result.info;
    } else if (head?.kind === 'parse') taint = head.state.taint;
    else if (head?.kind === 'bind') taint = head.state.statement.taint;
    else if (!head) taint = null;
    if (taint === null) return undefined;
    return { opaque: !taint || !!info?.opaque || /\(\)$/.test(taint.reason) };
  }

  // ---------------------------------------------------------------- capture

  private blockDetail(block: NonNullable<Decision['block']>): string {
    return block.policyId ? `Vigil policy ${block.policyName} (${block.policyId})` : 'Vigil audit proxy';
  }

  private enforcementDetails(decision: Decision | undefined): Record<string, unknown> {
    if (!decision) return {};
    const out: Record<string, unknown> = {};
    if (decision.block) out.enforcement = { action: 'blocked', policy_id: decision.block.policyId || null, policy_name: decision.block.policyName, message: decision.block.message };
    if (decision.wouldBlock.length) out.shadow = { would_block: decision.wouldBlock.map((e) => ({ policy_id: e.policy_id, policy_name: e.policy_name, matched_conditions: e.matched_conditions })) };
    return out;
  }

  private finish(result: ResultState, outcome: { tag?: string; suspended?: boolean; error?: { code: string; message: string }; blocked?: Decision['block'] }) {
    if ((result as { done?: boolean }).done) return;
    (result as { done?: boolean }).done = true;
    this.deps.metrics.statements.inc({ outcome: outcome.blocked ? 'blocked' : outcome.error ? 'error' : 'ok' });
    const info = result.info ?? (result.text ? this.deps.analyzer.describe(result.text) : undefined);
    if (info?.ddl) this.deps.catalog.invalidate(this.databaseName);
    if (!outcome.error && !outcome.blocked && result.info) this.defineNames(result.info);
    const durationMs = Number(nowNs() - result.startedAt) / 1e6;
    // Statements finish while server answers are relayed (onServerMessage); the record is built
    // once the answer has been written, so the client does not wait for its capture.
    this.deferred.push(() => this.capture(result, outcome, info, durationMs));
  }

  /** Runs what `finish` left for after the write, in order. */
  private runDeferred() {
    if (!this.deferred.length) return;
    const work = this.deferred;
    this.deferred = [];
    for (const job of work) job();
  }

  private capture(result: ResultState, outcome: Parameters<Session['finish']>[1], info: StatementInfo | undefined, durationMs: number) {
    const rows = outcome.tag ? (rowsOfTag(outcome.tag) ?? result.rows) : result.rows;
    const captured = captureQuery(this.deps.config.redactor.redact(result.text));
    const query = captured.query;
    const details: Record<string, unknown> = {
      query,
      statement_type: result.functionCall ? 'FUNCTION CALL' : (info?.type ?? null),
      objects: info?.objects ?? [],
      object: info?.objects[0] ?? null,
      rows_affected: rows,
      duration_ms: Math.round(durationMs),
      duration_us: Math.round(durationMs * 1000),
    };
    // Assigned one by one: spreading temporary objects costs more than the rest of the record.
    if (outcome.tag) details.command_tag = outcome.tag;
    if (result.functionCall) details.function = result.functionCall;
    if (captured.capture) {
      // The pipeline sees only the head and tail: the proxy's verdict on the whole text goes along.
      details.query_capture = captured.capture;
      details.proxy_verdict = {
        evaluated: 'full_text',
        evaluations: (result.decision?.evaluations ?? []).map((e) => ({ policy_id: e.policy_id, policy_name: e.policy_name, action_taken: e.action_taken, shadow: e.shadow ?? false, matched_conditions: e.matched_conditions })),
      };
    }
    if (outcome.suspended) details.portal_suspended = true;
    if (outcome.error) details.error = outcome.error;
    if (outcome.blocked) details.blocked = true;
    if (result.decision && (result.decision.block || result.decision.wouldBlock.length)) Object.assign(details, this.enforcementDetails(result.decision));
    if (result.params) {
      details.parameter_count = result.params.length;
      if (this.deps.config.captureParameters) details.parameters = result.params.map((p) => (p === null ? null : p.toString('utf8')));
    }
    if (result.maskedValues) {
      this.deps.metrics.masked.inc(result.maskedValues);
      details.masked_values = result.maskedValues;
    }
    this.record('database.query', details, outcome.error && !outcome.blocked ? 'warning' : undefined);
    if (result.plan) {
      const enforced = result.plan.filter((m): m is ColumnMask => !!m && !m.rule.shadow);
      const shadow = result.plan.filter((m): m is ColumnMask => !!m && m.rule.shadow);
      this.record('data.sensitive_access', {
        query,
        columns: [...new Set([...enforced, ...shadow].map((m) => m.column))],
        masked: enforced.length > 0,
        masking: [...enforced, ...shadow].map((m) => ({ column: m.column, policy_id: m.rule.policyId, rule: m.rule.rule, method: m.rule.method, shadow: m.rule.shadow })),
        ...(shadow.length ? { shadow: { would_mask: [...new Set(shadow.map((m) => m.column))] } } : {}),
        rows_affected: rows,
      });
    }
  }

  /** The details every record of this session starts with, serialized once (set on the first record). */
  private sharedDetails: string | undefined;

  private record(type: AuditEventType, details: Record<string, unknown>, severity?: 'info' | 'warning' | 'critical') {
    if (!this.identity) return;
    // TLS is negotiated before the startup packet, so nothing here changes once the identity is set.
    this.sharedDetails ??= JSON.stringify({
      user: this.identity.user,
      source_ip: this.identity.sourceIp,
      session_id: this.id,
      ...(this.identity.application ? { client_application: this.identity.application } : {}),
      database_name: this.databaseName,
      db_type: 'postgresql',
      host: this.deps.config.upstreamHost,
      port: this.deps.config.upstreamPort,
      tls: this.clientTls,
      proxy_instance: this.deps.instance,
    });
    const head = { id: `pgp_${randomUUID()}`, type, database_id: this.identity.databaseId, timestamp: isoNow(), severity };
    this.deps.capture.add({ id: head.id, type, database_id: head.database_id, json: serializeRecord(head, this.sharedDetails, details) });
  }

  // ---------------------------------------------------------------- end

  private fatal(code: string, message: string) {
    if (this.phase === 'closed') return;
    if (!this.client.destroyed) this.client.end(errorResponse({ severity: 'FATAL', code, message }));
    this.close();
  }

  /** Ends the session for shutdown: the client is told why. */
  terminate() {
    this.fatal('57P01', 'terminating connection: the Vigil proxy is shutting down');
  }

  close() {
    if (this.phase === 'closed') return;
    const wasOpen = this.phase === 'ready' || this.phase === 'auth';
    this.phase = 'closed';
    if (!this.client.destroyed) this.client.end();
    if (this.server && !this.server.destroyed) this.server.end();
    this.deps.unregister(this);
    if (this.server) this.deps.metrics.sessions.dec();
    // Statements finished in the answer being relayed are recorded before the disconnect.
    this.runDeferred();
    if (wasOpen && this.loggedIn) {
      this.record('database.disconnect', { session_duration_ms: Date.now() - this.started, statements: this.statementsCount });
    }
    this.closedResolve();
  }
}
