// Generated from the gateway's OpenAPI document (GET /v1/openapi.json) by `npm run console:client`.
// Do not edit: a test fails when this file differs from what the current document generates.

export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys that sign access tokens (JWKS) */
        get: operations["OAuthController_jwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["OAuthController_metadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization endpoint (code flow with PKCE S256)
         * @description A browser gets the login-and-consent page; a request carrying a user access token is answered with the redirect at once.
         */
        get: operations["OAuthController_authorize"];
        put?: never;
        /**
         * Consent form submission of the authorization endpoint
         * @description The target of the login-and-consent page (form-encoded, with the page's CSRF token, double-submit checked against its cookie). Answers with the redirect to the client carrying the code, or the page again with an error. Browsers only; not for API clients.
         */
        post: operations["OAuthController_consent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token revocation (RFC 7009)
         * @description Refresh tokens revoke their whole session; access tokens are refused by every gateway.
         */
        post: operations["OAuthController_revoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token endpoint
         * @description Form-encoded. Grants authorization_code (with code_verifier), client_credentials and refresh_token; client_secret_basic or client_secret_post.
         */
        post: operations["OAuthController_token"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List alert destinations (newest first; secrets never returned) */
        get: operations["AlertDestinationsController_list"];
        put?: never;
        /**
         * Create an alert destination (generic HTTP destination)
         * @description Omitted settings take their defaults (each property names its own). Secret fields are write-only and stored encrypted.
         */
        post: operations["AlertDestinationsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-destinations/{destination_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one alert destination (secrets never returned; `secrets_set` names those with a value) */
        get: operations["AlertDestinationsController_get"];
        /**
         * Update an alert destination
         * @description Fields sent change, fields omitted stay; `null` resets a setting to its default or clears a secret. Same as PATCH.
         */
        put: operations["AlertDestinationsController_put"];
        post?: never;
        /** Delete an alert destination and its delivery history */
        delete: operations["AlertDestinationsController_delete"];
        options?: never;
        head?: never;
        /**
         * Update an alert destination
         * @description Fields sent change, fields omitted stay; `null` resets a setting to its default or clears a secret.
         */
        patch: operations["AlertDestinationsController_patch"];
        trace?: never;
    };
    "/v1/alert-destinations/{destination_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery history of a destination: each alert sent, its attempts, status codes, latency and errors (newest first) */
        get: operations["AlertDestinationsController_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List alerts (newest first)
         * @description Filters: start_date, end_date (creation time), severity, status, type (comma-separated), database_id.
         */
        get: operations["AlertsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{alert_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one alert */
        get: operations["AlertsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{alert_id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge an open alert
         * @description open -> acknowledged; announced to webhooks as `alert.resolved` with `status: acknowledged`.
         */
        post: operations["AlertsController_acknowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{alert_id}/escalate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Escalate an alert to a higher severity
         * @description Default one step up; the alert is sent again to the destinations that accept the new severity; announced as `alert.escalated`.
         */
        post: operations["AlertsController_escalate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{alert_id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve an alert
         * @description open or acknowledged -> resolved; announced as `alert.resolved`.
         */
        post: operations["AlertsController_resolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count alerts
         * @description How many alerts match the list's filters (start_date, end_date, severity, status, type, database_id): in all, by severity and by status, in one call (e.g. open alerts by severity: `?status=open`).
         */
        get: operations["AlertsController_counts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test alert to an alert destination
         * @description Sends a sample alert (`test: true`) through the real delivery path (template, authentication, safe egress, success codes, retries) now, and answers the outcome: success, status code, duration, error and every attempt. A failed delivery is a 200 with `success: false`.
         */
        post: operations["AlertsController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (never their values) */
        get: operations["ApiKeysController_list"];
        put?: never;
        /**
         * Create an API key
         * @description The key value is in this response only; Vigil stores a hash of it.
         */
        post: operations["ApiKeysController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Requests with the key get 401 from then on, on every gateway replica.
         */
        delete: operations["ApiKeysController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key
         * @description Creates a new key with the same name, scopes, expiry and creator; its value is in this response only. The old key is revoked at once (overlap_seconds 0, the default) or keeps working until the overlap ends, when every replica refuses it and closes its event streams.
         */
        post: operations["ApiKeysController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with e-mail and password
         * @description Rate-limited per client IP, and per e-mail address after consecutive failures (5 failures: 1 s, doubling to 15 min; a success resets it), both before the password is checked. Unknown e-mail addresses are throttled the same way.
         */
        post: operations["AuthController_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out
         * @description Revokes the session of the access token sent: its refresh token stops working and its access tokens are refused at once on every gateway replica (event streams opened with them close). The refresh cookie, if any, is cleared. Needs a user's access token from a login, no scope.
         */
        post: operations["AuthController_logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your own password
         * @description Needs the current password. Every other session of the user ends; the one making the request stays. Needs a user's access token from a login, no scope.
         */
        post: operations["AuthController_changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new tokens
         * @description Rotation: the answer carries a new refresh token and the old one stops working. Presenting a used refresh token again revokes the whole session. Without refresh_token in the body, the refresh cookie of a login made with `X-Vigil-Refresh: cookie` is used; that needs the same header (which a cross-site form cannot send) and, when the request has an Origin, the gateway's own origin. The new refresh token then goes into the cookie again.
         */
        post: operations["AuthController_refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/signing-keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the token signing key now
         * @description A new key signs access tokens from now on. The old one stays in the JWKS (/.well-known/jwks.json) until every token it signed has expired, so tokens already issued keep working. Keys also rotate on their own every SIGNING_KEY_ROTATION_DAYS.
         */
        post: operations["AuthController_rotateSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/databases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List registered and discovered databases, by name */
        get: operations["DatabasesController_list"];
        put?: never;
        /** Register a database (with the id of a discovered one: registers it, keeping its activity) */
        post: operations["DatabasesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/databases/{database_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one database with its activity */
        get: operations["DatabasesController_get"];
        put?: never;
        post?: never;
        /** Remove the registration; audit events stay (new events rediscover it) */
        delete: operations["DatabasesController_delete"];
        options?: never;
        head?: never;
        /** Change the given fields; omitted fields stay unchanged */
        patch: operations["DatabasesController_update"];
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events, newest first
         * @description Every filter combines with AND. `type` takes patterns (`security.*`). `page` reaches (page-1)*limit <= 10000; pass `pagination.next_cursor` as `cursor` for any depth, and `pagination.snapshot` as `snapshot` for pages that ignore newer events.
         */
        get: operations["EventsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one event with its context and related events */
        get: operations["EventsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/aggregate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Aggregate events
         * @description Metrics (`count`, `unique_users`, `unique_source_ips`, `max_risk_score`, `avg_risk_score`) over the events matching `filters` (default time range: the last 24 h), grouped by fields and optionally a UTC time bucket (`minute`, `hour`, `day`).
         */
        post: operations["EventsController_aggregate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest audit records (at most 1000 and 1 MiB); all or nothing
         * @description Records are stored whatever their strings hold: a record holding U+0000 or a lone surrogate is stored escaped (`\` -> `\\`, U+0000 -> `\0`, lone surrogate -> `\uXXXX`) and read back as sent by the events API and the stream. Producers may send these types: database.query, database.connection, database.disconnect, security.threat_detected, security.anomaly, security.privilege_escalation, data.sensitive_access, data.export, user.login_failed, user.login_success. The types only Vigil produces (policy.violation, policy.match, vigil.* and audit.checkpoint) are refused: 400 with errors[].field `events[i].type`, and nothing of the request is stored. Each stored event records the credential that sent it as `ingested_by` ({kind: user | api_key | oauth_client, id}).
         */
        post: operations["EventsController_ingest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search events
         * @description The list filters plus `operation: {in: [...]}` (first SQL keyword of the query) and `query: {contains: "..."}` (case-insensitive text match), over `time_range` (default: the last 24 h); newest first, paged by cursor.
         */
        post: operations["EventsController_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream events live (Server-Sent Events)
         * @description Each message: `id: <event_id>`, `event: <type>`, `data: <event JSON>`; a comment heartbeat every 15 s. Last-Event-ID replays the stored events after that id, in order, then continues live with no gap and no duplicate. At most 10 open streams per credential. A client leaving more than STREAM_BUFFER_BYTES unread gets a final `event: error` message (code slow_consumer) and is disconnected; it resumes with Last-Event-ID. A stream lives no longer than its credential: when the access token or API key expires, or within a second of the key, session or user being revoked, disabled or deleted, a final `event: stream.closed` message with `{reason, detail}` (e.g. `token_expired`, `api_key_revoked`, `user_disabled`) ends it.
         */
        get: operations["EventsController_stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/checkpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signed checkpoints, newest first */
        get: operations["IntegrityController_checkpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/checkpoints/{tree_size}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The checkpoint of one tree size */
        get: operations["IntegrityController_checkpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/checkpoints/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The newest signed checkpoint */
        get: operations["IntegrityController_latest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every checkpoint signing key ever used, with its validity */
        get: operations["IntegrityController_keys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retire the active signing key now and start signing with a new one */
        post: operations["IntegrityController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/leaves": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stored events in leaf order with their leaf hashes
         * @description An event retention dropped is null with retained: false.
         */
        get: operations["IntegrityController_leaves"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/proofs/consistency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** RFC 9162 consistency proof between two checkpointed tree sizes */
        get: operations["IntegrityController_consistency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/proofs/inclusion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RFC 9162 inclusion proof of one event in a checkpointed tree
         * @description leaf_index is the event position (seq - 1).
         */
        get: operations["IntegrityController_inclusion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a server-side verification of a range of events against a checkpoint
         * @description Poll GET /v1/integrity/verifications/{id}; first_failure names the first event that fails and why.
         */
        post: operations["IntegrityController_start"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrity/verifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A verification job and its progress */
        get: operations["IntegrityController_verification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List OAuth clients (never their secrets) */
        get: operations["OAuthClientsController_list"];
        put?: never;
        /**
         * Register an OAuth client
         * @description `client_secret` is returned once.
         */
        post: operations["OAuthClientsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/clients/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an OAuth client
         * @description Its refresh tokens are revoked and every access token issued to it is refused at once on every gateway replica.
         */
        delete: operations["OAuthClientsController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/clients/{client_id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an OAuth client's secret
         * @description The new secret is returned once. The previous one is still accepted for overlap_seconds, so the client can switch without downtime.
         */
        post: operations["OAuthClientsController_rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List policies (items without config) */
        get: operations["PoliciesController_list"];
        put?: never;
        /** Create a policy (enabled defaults to false) */
        post: operations["PoliciesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies/{policy_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one policy with its config, violation_count and last_violation_at */
        get: operations["PoliciesController_get"];
        /** Update the given fields; omitted fields stay unchanged. Answers the whole policy. */
        put: operations["PoliciesController_update"];
        post?: never;
        /** Delete permanently; the violation history is kept */
        delete: operations["PoliciesController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies/{policy_id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable; the configuration is kept */
        post: operations["PoliciesController_disable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies/{policy_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable (enforced within a second on every event-ingest instance) */
        post: operations["PoliciesController_enable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies/{policy_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Simulate the policy against a sample; nothing is blocked, stored or sent */
        post: operations["PoliciesController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies/{policy_id}/violations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List violations, newest first (also of a deleted policy) */
        get: operations["PoliciesController_violations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/report-schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List schedules by name */
        get: operations["ReportSchedulesController_list"];
        put?: never;
        /** Create a schedule: a cron expression read in an IANA time zone; each slot produces one report */
        post: operations["ReportSchedulesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/report-schedules/{schedule_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one schedule with its next and last run */
        get: operations["ReportSchedulesController_get"];
        put?: never;
        post?: never;
        /** Delete a schedule; its reports stay */
        delete: operations["ReportSchedulesController_delete"];
        options?: never;
        head?: never;
        /** Change the given fields; a new cron, time zone or enabled state recomputes next_run_at */
        patch: operations["ReportSchedulesController_update"];
        trace?: never;
    };
    "/v1/report-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The report types, their sections and the controls each section maps to */
        get: operations["ReportsController_types"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List reports, newest first */
        get: operations["ReportsController_list"];
        put?: never;
        /** Request a report: queued at once (202), generated in the background; follow `status` and `progress` */
        post: operations["ReportsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one report: status, progress, summary and download links */
        get: operations["ReportsController_get"];
        put?: never;
        post?: never;
        /** Delete a stored report */
        delete: operations["ReportsController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/{report_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a completed report as JSON (the document), CSV, a self-contained HTML document, or PDF
         * @description The HTML and PDF print the report digest: the SHA-256 (hex) of the `format=json` download, byte for byte. The PDF has a cover page (type, period, scope, generation, digest), the summary and control mapping, every section with its table, and "Page n of m" on every page.
         */
        get: operations["ReportsController_download"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users */
        get: operations["UsersController_list"];
        put?: never;
        /** Create a user */
        post: operations["UsersController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user */
        get: operations["UsersController_get"];
        put?: never;
        post?: never;
        /**
         * Delete a user
         * @description Revokes the user's sessions and API keys at once on every gateway replica, then deletes the account. The last enabled administrator cannot be deleted (409).
         */
        delete: operations["UsersController_delete"];
        options?: never;
        head?: never;
        /**
         * Change a user's scopes, or disable or enable the account
         * @description Disabling revokes every session and every API key the user created, at once on every gateway replica (open event streams close with `stream.closed`); a disabled user cannot log in or refresh. Taking a scope away ends the user's sessions. The last enabled administrator can be neither disabled nor lose `admin` (409).
         */
        patch: operations["UsersController_update"];
        trace?: never;
    };
    "/v1/users/{user_id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset a user's password (administrator)
         * @description Every session of the user ends.
         */
        post: operations["UsersController_resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke every session of a user
         * @description Refresh tokens stop working and access tokens of those sessions are refused at once on every gateway replica. API keys are not affected.
         */
        delete: operations["UsersController_revokeSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook subscriptions (newest first; secrets are never returned) */
        get: operations["WebhooksController_list"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description Subscribing to audit log event types (`*`, or a type or pattern of the `database`, `user`, `data` or `vigil` families) also needs `read:logs` (403 `insufficient_scope` naming it otherwise). With `secret`: form A (answer: id, url, events, status, created_at). Without: form B (answer includes the generated `secret`, shown only here). Deliveries of both forms carry the X-Service-* headers of their form and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature`, keyed by the UTF-8 bytes of the secret (see the `webhooks` section of this document).
         */
        post: operations["WebhooksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one webhook subscription (its form included, its secret never) */
        get: operations["WebhooksController_get"];
        put?: never;
        post?: never;
        /** Delete a webhook subscription and its delivery history */
        delete: operations["WebhooksController_delete"];
        options?: never;
        head?: never;
        /**
         * Update `events`, `active`, `url` or `description`
         * @description A new url, or `active: true`, clears a failing flag and sends the held deliveries. A url change keeps the signing secret (a signing key, never sent to the receiver); subscriptions store no other credential. New `events` naming audit log event types (`*`, or a type or pattern of the `database`, `user`, `data` or `vigil` families) also need `read:logs` (403 `insufficient_scope` naming it otherwise).
         */
        patch: operations["WebhooksController_update"];
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery history: attempts, status codes, latency, errors, next attempt time (newest first) */
        get: operations["WebhooksController_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with all its attempts */
        get: operations["WebhooksController_delivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one delivery again
         * @description Same event id, body and `webhook-id`, new X-Service-Delivery-ID and timestamps, the retry schedule from its start. A delivery pending or in flight is left as it is.
         */
        post: operations["WebhooksController_redeliverOne"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again every delivery a receiver missed
         * @description Deliveries in the given states (default failed and held), optionally created within [since, until).
         */
        post: operations["WebhooksController_redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test delivery
         * @description Queued at once; one attempt; the payload carries `test: true`. Follow it in the deliveries list.
         */
        post: operations["WebhooksController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    alertDestinationRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request to an alert destination (POST, PUT or PATCH as configured)
         * @description The default or templated alert payload, in the configured content type, with the custom headers and authentication. With `auth_type` `hmac`, `hmac_header` carries the hex HMAC (`hmac_algorithm`) of the raw body, and the Standard Webhooks headers below are added; without, they are absent.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description Standard Webhooks message id: the alert delivery id (`ald_…`). The same on every attempt of the message; de-duplicate on it.
                     * @example whd_01JDZ4M6W8Q5N2R7T3V9X1Y0AB
                     */
                    "webhook-id"?: string;
                    /**
                     * @description Standard Webhooks signature: `v1,` then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the UTF-8 bytes of `hmac_secret`, always SHA-256 whatever `hmac_algorithm`; a space-separated list when several keys sign. The official `standardwebhooks` libraries verify it (built from the raw UTF-8 bytes of the secret, or from `whsec_` + base64 of those bytes) and refuse a timestamp more than 5 minutes away from their clock.
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature"?: string;
                    /**
                     * @description Standard Webhooks timestamp: Unix seconds at which this attempt was sent (new on every attempt).
                     * @example 1767225600
                     */
                    "webhook-timestamp"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                    "application/x-www-form-urlencoded": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description A status in `success_codes` is a success; anything else is retried `retry_attempts` times. */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    webhookDeliveryFormA: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delivery to a form A subscription (created with `secret`)
         * @description X-Service-Signature covers `<X-Service-Timestamp>.<raw body>`. Verify one of the two schemes, in constant time, before processing.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description Standard Webhooks message id: the delivery id (`whd_…`) of this event to this subscription. The same on every attempt of the message; de-duplicate on it.
                     * @example whd_01JDZ4M6W8Q5N2R7T3V9X1Y0AB
                     */
                    "webhook-id": string;
                    /**
                     * @description Standard Webhooks signature: `v1,` then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the UTF-8 bytes of the subscription secret exactly as held (form B: the whole `whsec_…` string, not base64-decoded); a space-separated list when several keys sign. The official `standardwebhooks` libraries verify it (built from the raw UTF-8 bytes of the secret, or from `whsec_` + base64 of those bytes) and refuse a timestamp more than 5 minutes away from their clock.
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": string;
                    /**
                     * @description Standard Webhooks timestamp: Unix seconds at which this attempt was sent (new on every attempt).
                     * @example 1767225600
                     */
                    "webhook-timestamp": string;
                    /**
                     * @description Unique id of this delivery attempt (new on every attempt).
                     * @example wha_01JDZ4M7A2B3C4D5E6F7G8H9J0
                     */
                    "X-Service-Delivery-ID": string;
                    /**
                     * @description The event type.
                     * @example security.threat_detected
                     */
                    "X-Service-Event": string;
                    /**
                     * @description `sha256=` then the hex HMAC-SHA256, keyed by the secret, of `<X-Service-Timestamp>.<raw body>`.
                     * @example sha256=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
                     */
                    "X-Service-Signature": string;
                    /**
                     * @description Unix seconds at which this attempt was sent.
                     * @example 1767225600
                     */
                    "X-Service-Timestamp": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created: string;
                        data: {
                            [key: string]: unknown;
                        };
                        /** @description The event id, the same on every attempt. */
                        id: string;
                        /**
                         * @description Present on test deliveries only.
                         * @constant
                         */
                        test?: true;
                        type: string;
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer, or none within 30 seconds, is retried on the schedule. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    webhookDeliveryFormB: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delivery to a form B subscription (generated secret)
         * @description X-Service-Signature covers the raw body only, so it does not bind the time: check webhook-signature (which does) to refuse replays.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description Standard Webhooks message id: the delivery id (`whd_…`) of this event to this subscription. The same on every attempt of the message; de-duplicate on it.
                     * @example whd_01JDZ4M6W8Q5N2R7T3V9X1Y0AB
                     */
                    "webhook-id": string;
                    /**
                     * @description Standard Webhooks signature: `v1,` then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the UTF-8 bytes of the subscription secret exactly as held (form B: the whole `whsec_…` string, not base64-decoded); a space-separated list when several keys sign. The official `standardwebhooks` libraries verify it (built from the raw UTF-8 bytes of the secret, or from `whsec_` + base64 of those bytes) and refuse a timestamp more than 5 minutes away from their clock.
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": string;
                    /**
                     * @description Standard Webhooks timestamp: Unix seconds at which this attempt was sent (new on every attempt).
                     * @example 1767225600
                     */
                    "webhook-timestamp": string;
                    /**
                     * @description Unique id of this delivery attempt (new on every attempt).
                     * @example wha_01JDZ4M7A2B3C4D5E6F7G8H9J0
                     */
                    "X-Service-Delivery-ID": string;
                    /**
                     * @description The event type.
                     * @example security.threat_detected
                     */
                    "X-Service-Event": string;
                    /**
                     * @description `sha256=` then the hex HMAC-SHA256, keyed by the secret, of the raw body.
                     * @example sha256=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
                     */
                    "X-Service-Signature": string;
                    /**
                     * @description Unix seconds at which this attempt was sent.
                     * @example 1767225600
                     */
                    "X-Service-Timestamp": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        data: {
                            [key: string]: unknown;
                        };
                        /** @description The event id, the same on every attempt. */
                        id: string;
                        /**
                         * @description Present on test deliveries only.
                         * @constant
                         */
                        test?: true;
                        type: string;
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer, or none within 30 seconds, is retried on the schedule. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        ActionDto: {
            /** @enum {string} */
            severity?: "critical" | "high" | "medium" | "low" | "info";
            /**
             * @description block, alert, log or mask
             * @example block
             */
            type: string;
        };
        AggregateEventsDto: {
            filters?: components["schemas"]["BodyFiltersDto"];
            /**
             * @description Fields to group by; `minute`, `hour` or `day` (at most one) adds a UTC time bucket.
             * @example [
             *       "database_name"
             *     ]
             */
            group_by?: ("database_id" | "database_name" | "type" | "severity" | "user" | "source_ip" | "operation" | "minute" | "hour" | "day")[];
            /**
             * @description Most groups returned (largest count first).
             * @default 1000
             */
            limit: number;
            /**
             * @example [
             *       "count"
             *     ]
             */
            metrics: ("count" | "unique_users" | "unique_source_ips" | "max_risk_score" | "avg_risk_score")[];
        };
        AggregateGroupDto: {
            avg_risk_score?: number;
            /**
             * Format: date-time
             * @description Start of the time bucket (with a bucket in group_by).
             */
            bucket?: string;
            count?: number;
            /**
             * @description The group_by fields and their values.
             * @example {
             *       "database_name": "db_main"
             *     }
             */
            key: Record<string, never>;
            max_risk_score?: number;
            unique_source_ips?: number;
            unique_users?: number;
        };
        AggregateResponseDto: {
            group_by: string[];
            groups: components["schemas"]["AggregateGroupDto"][];
            metrics: string[];
            time_range: components["schemas"]["TimeRangeResponseDto"];
            /**
             * @description The metrics over every matching event.
             * @example {
             *       "count": 1234
             *     }
             */
            totals: Record<string, never>;
            /** @description True when more groups exist than `limit`. */
            truncated: boolean;
        };
        AlertCountsView: {
            /** @description Of those, how many of each severity (every severity, zeros included). */
            by_severity: components["schemas"]["AlertSeverityCountsView"];
            /** @description Of those, how many in each status (every status, zeros included). */
            by_status: components["schemas"]["AlertStatusCountsView"];
            /** @description Alerts matching the filters. */
            total: number;
        };
        AlertDeliveryAttemptView: {
            attempt: number;
            error: string | null;
            latency_ms: number;
            started_at: string;
            status_code: number | null;
            success: boolean;
        };
        AlertDeliveryPage: {
            data: components["schemas"]["AlertDeliveryView"][];
            pagination: components["schemas"]["DestinationPagination"];
        };
        AlertDeliveryView: {
            alert_id: string;
            attempt_count: number;
            attempts: components["schemas"]["AlertDeliveryAttemptView"][];
            completed_at: string | null;
            created_at: string;
            destination_id: string;
            id: string;
            last_error: string | null;
            last_latency_ms: number | null;
            last_status_code: number | null;
            max_attempts: number;
            next_attempt_at: string | null;
            /** @enum {string} */
            severity: "critical" | "high" | "medium" | "low" | "info";
            /** @enum {string} */
            status: "pending" | "in_flight" | "succeeded" | "failed";
            test: boolean;
        };
        AlertDestinationPage: {
            data: components["schemas"]["AlertDestinationView"][];
            pagination: components["schemas"]["DestinationPagination"];
        };
        AlertDestinationView: {
            alert_types: string[];
            api_key_header: string;
            auth_type: string;
            auth_username: string | null;
            content_type: string;
            created_at: string;
            custom_headers: {
                [key: string]: string;
            };
            database_filter: string[];
            enabled: boolean;
            hmac_algorithm: string;
            hmac_header: string;
            /** @example dest_01j... */
            id: string;
            include_raw_event: boolean;
            method: string;
            name: string;
            payload_format: string;
            payload_template: string | null;
            provider: string;
            rate_limit: number;
            retry_attempts: number;
            retry_delay_seconds: number;
            /** @description Secret fields that hold a value (values are never returned). */
            secrets_set: ("auth_password" | "auth_token" | "api_key_value" | "hmac_secret")[];
            severity_filter: string[];
            success_codes: number[];
            timeout_seconds: number;
            updated_at: string;
            url: string;
        };
        AlertPageView: {
            data: components["schemas"]["AlertView"][];
            pagination: components["schemas"]["DestinationPagination"];
        };
        AlertSeverityCountsView: {
            critical: number;
            high: number;
            info: number;
            low: number;
            medium: number;
        };
        AlertStatusCountsView: {
            acknowledged: number;
            open: number;
            resolved: number;
        };
        AlertView: {
            acknowledged_at: string | null;
            created_at: string;
            database_id: string;
            description: string;
            escalated_at: string | null;
            /** @description Audit events behind the alert (the latest 100). */
            event_ids: string[];
            first_seen_at: string;
            /** @example alt_01j... */
            id: string;
            last_seen_at: string;
            /** @description Occurrences folded into this alert within the de-duplication window. */
            occurrences: number;
            policy_id: string | null;
            policy_name: string | null;
            resolved_at: string | null;
            /** @enum {string} */
            severity: "critical" | "high" | "medium" | "low" | "info";
            /** @enum {string} */
            status: "open" | "acknowledged" | "resolved";
            title: string;
            /** @enum {string} */
            type: "policy_violation" | "anomaly_detection" | "threshold_breach" | "classification_alert";
            updated_at: string;
        };
        ApiKeyDto: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** @example key_01j9... */
            id: string;
            /**
             * Format: date-time
             * @description Accurate to about a minute
             */
            last_used_at: string | null;
            name: string;
            /**
             * @description The first characters of the key, to recognise it
             * @example vigil_ak_a1B2c3
             */
            prefix: string;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        BodyFiltersDto: {
            /** @example db_main */
            database_id?: string;
            /** @description SQL operation: the first keyword of the query (SELECT, UPDATE, DROP, ...). */
            operation?: components["schemas"]["InFilterDto"];
            /** @description Text match on the query (search only). */
            query?: components["schemas"]["ContainsFilterDto"];
            /** @example critical */
            severity?: string;
            source_ip?: string;
            /** @description Default: the last 24 hours. */
            time_range?: components["schemas"]["TimeRangeDto"];
            /**
             * @description Event type or pattern; several comma-separated.
             * @example security.*
             */
            type?: string;
            user?: string;
        };
        ChangePasswordDto: {
            /** Format: password */
            current_password: string;
            /**
             * Format: password
             * @description At least 12 characters, not a commonly used password
             */
            new_password: string;
        };
        CheckpointDto: {
            key_id: string;
            /** @description RFC 9162 root of the first tree_size leaves, lowercase hex */
            root_hash: string;
            /** @description Ed25519 signature of the checkpoint message, base64 of 64 bytes */
            signature: string;
            /** Format: date-time */
            timestamp: string;
            /** @example 1024 */
            tree_size: number;
        };
        CheckpointPageDto: {
            data: components["schemas"]["CheckpointDto"][];
            pagination: components["schemas"]["CheckpointPaginationDto"];
        };
        CheckpointPaginationDto: {
            has_more: boolean;
            page: number;
            per_page: number;
            total: number;
        };
        ConsistencyProofDto: {
            first: number;
            /** @description RFC 9162 §2.1.4 consistency proof, lowercase hex */
            proof: string[];
            second: number;
        };
        ContainsFilterDto: {
            /**
             * @description Case-insensitive substring of the query text.
             * @example password
             */
            contains: string;
        };
        CreateAlertDestinationDto: {
            /** @description Alert types sent; empty or omitted = all. */
            alert_types?: ("policy_violation" | "anomaly_detection" | "threshold_breach" | "classification_alert")[];
            /**
             * @description Header carrying the API key.
             * @default X-API-Key
             */
            api_key_header: string;
            /** @description The API key value. Write-only; null clears it. */
            api_key_value?: string | null;
            /** @description Basic auth password. Write-only; null clears it. */
            auth_password?: string | null;
            /** @description Bearer token. Write-only; null clears it. */
            auth_token?: string | null;
            /**
             * @default none
             * @enum {string}
             */
            auth_type: "none" | "basic" | "bearer" | "api_key" | "hmac";
            /** @description Basic auth user (required with basic). */
            auth_username?: string | null;
            /**
             * @default application/json
             * @enum {string}
             */
            content_type: "application/json" | "application/x-www-form-urlencoded";
            /** @description Extra headers; they cannot replace authentication, content type or framing headers, and may not contain CR/LF. */
            custom_headers?: {
                [key: string]: string;
            };
            /** @description Database ids; empty = all databases. */
            database_filter?: string[];
            /**
             * @description Enables alert delivery.
             * @default true
             */
            enabled: boolean;
            /**
             * @default sha256
             * @enum {string}
             */
            hmac_algorithm: "sha256" | "sha384" | "sha512";
            /**
             * @description Header carrying the hex HMAC of the raw body. With auth_type hmac the request also carries the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (HMAC-SHA256 keyed by the UTF-8 bytes of hmac_secret); none of the three may be chosen here or as a custom header.
             * @default X-Signature
             */
            hmac_header: string;
            /** @description HMAC secret. Write-only; null clears it. */
            hmac_secret?: string | null;
            /**
             * @description Adds the raw event data (`raw_event`) to the payload.
             * @default false
             */
            include_raw_event: boolean;
            /**
             * @default POST
             * @enum {string}
             */
            method: "POST" | "PUT" | "PATCH";
            /** @description Unique name; policy alert `channels` name destinations by it. */
            name: string;
            /**
             * @default default
             * @enum {string}
             */
            payload_format: "default" | "custom";
            /** @description Handlebars template of a JSON document (with `custom`); values are JSON-escaped; `#if`, `else if`, `eq` and `json` helpers. Refused (422, with the line) unless it compiles and renders valid JSON for a sample alert. */
            payload_template?: string | null;
            /**
             * @description `webhook` selects the generic HTTP destination.
             * @default webhook
             * @enum {string}
             */
            provider: "webhook";
            /**
             * @description Alerts per minute; excess alerts wait in the queue.
             * @default 60
             */
            rate_limit: number;
            /**
             * @description Retries after a failed attempt.
             * @default 3
             */
            retry_attempts: number;
            /**
             * @description Seconds between retries.
             * @default 5
             */
            retry_delay_seconds: number;
            /** @description Severities sent; empty or omitted = all. */
            severity_filter?: ("critical" | "high" | "medium" | "low" | "info")[];
            /**
             * @description HTTP statuses counted as success.
             * @default [
             *       200,
             *       201,
             *       202,
             *       204
             *     ]
             */
            success_codes: number[];
            /** @default 30 */
            timeout_seconds: number;
            /** @description Target URL (https:// on a public address; checked at save and at send). */
            url: string;
        };
        CreateApiKeyDto: {
            /**
             * Format: date-time
             * @description No expiry when omitted
             */
            expires_at?: Record<string, never> | null;
            /** @example SIEM export */
            name: string;
            /**
             * @example [
             *       "read:logs"
             *     ]
             */
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        CreatedApiKeyDto: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** @example key_01j9... */
            id: string;
            /**
             * @description The key. Shown in this response only; store it now.
             * @example vigil_ak_...
             */
            key: string;
            /**
             * Format: date-time
             * @description Accurate to about a minute
             */
            last_used_at: string | null;
            name: string;
            /**
             * @description The first characters of the key, to recognise it
             * @example vigil_ak_a1B2c3
             */
            prefix: string;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        CreateDatabaseDto: {
            /** @description database (catalog/schema) name on the server */
            database?: string;
            description?: string;
            /** @enum {string} */
            environment?: "production" | "staging" | "development" | "test" | "other";
            /** @example db1.internal */
            host?: string;
            /**
             * @description choose the id (e.g. to register a discovered database); generated when omitted
             * @example db_prod_main
             */
            id?: string;
            /** @description unique among databases, case-insensitive (409 if taken) */
            name: string;
            /** @example 5432 */
            port?: number;
            /**
             * @description free labels (letters, digits, _ . : -); report scopes and filters use them
             * @example [
             *       "pci",
             *       "finance"
             *     ]
             */
            tags?: string[];
            /** @enum {string} */
            type: "postgresql" | "mysql" | "mariadb" | "sqlserver" | "oracle" | "mongodb" | "db2" | "snowflake" | "redshift" | "cockroachdb" | "other";
        };
        CreatedOAuthClientDto: {
            /** @example cli_01j9... */
            client_id: string;
            /** @description Shown in this response only */
            client_secret: string;
            /** Format: date-time */
            created_at: string;
            grant_types: ("authorization_code" | "client_credentials" | "refresh_token")[];
            name: string;
            /**
             * Format: date-time
             * @description Until then the secret before the last rotation is still accepted
             */
            previous_secret_expires_at: string | null;
            redirect_uris: string[];
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
            /** Format: date-time */
            secret_rotated_at: string | null;
        };
        CreateOAuthClientDto: {
            grant_types: ("authorization_code" | "client_credentials" | "refresh_token")[];
            /** @example Compliance dashboard */
            name: string;
            /**
             * @description Matched exactly; https, or http on a loopback host
             * @example [
             *       "https://dashboard.example.com/callback"
             *     ]
             */
            redirect_uris: string[];
            /** @description The widest scopes the client may ever get */
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        CreatePolicyDto: {
            /** @description Depends on `type`; 422 with field paths when invalid for it. One of: */
            config: {
                actions: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                    /** @description `block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match */
                    type: "block" | "alert" | "log";
                }[];
                conditions: {
                    /** @description IPv4 or IPv6 CIDR ranges (or single addresses) access is allowed from */
                    allowed_ips?: string[];
                    time_window?: {
                        /** @description lowercase weekday names; the day a window starts on; default every day */
                        days?: string[];
                        /** @description HH:MM, exclusive; an end not after start crosses midnight */
                        end: string;
                        /** @description HH:MM, inclusive */
                        start: string;
                        /** @description IANA zone name, default UTC */
                        timezone?: string;
                    };
                    /** @description database users the policy governs; omitted or empty = every user */
                    users?: string[];
                };
            } | {
                /** @description beyond masking (always applied): `alert` or `block` make an access a violation; default none = a policy match */
                actions?: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                    /** @description `block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match */
                    type: "block" | "alert" | "log";
                }[];
                /** @description who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused */
                exceptions?: {
                    /** @description narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone */
                    applications?: string[];
                    /** @description database users exempt from the rules (the user the database authenticated) */
                    users?: string[];
                };
                rules: {
                    /** @description data classes (e.g. pii, pci); matched against details.classifications of the event */
                    classifications?: string[];
                    /** @description `column`, `table.column` or `*.column` (case-insensitive); referenced in a query = access */
                    columns?: string[];
                    /** @description `redact`: replaced by ***; `partial`: only show_first/show_last characters kept; `hash`: SHA-256; `null`: NULL */
                    method: "redact" | "partial" | "hash" | "null";
                    name: string;
                    /** @description partial: leading characters kept (default 0) */
                    show_first?: number;
                    /** @description partial: trailing characters kept (default 4) */
                    show_last?: number;
                }[];
            } | {
                /** @description who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused */
                exceptions?: {
                    /** @description narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone */
                    applications?: string[];
                    /** @description database users exempt from the rules (the user the database authenticated) */
                    users?: string[];
                };
                rules: {
                    action: "block" | "alert" | "log";
                    /** @description default false: SQL keywords match in any case */
                    case_sensitive?: boolean;
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    message?: string;
                    name: string;
                    /** @description RE2 regular expression searched in the query */
                    pattern: string;
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                }[];
            } | {
                alert: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    message?: string;
                    /** @description critical, high, medium, low or info */
                    severity: "critical" | "high" | "medium" | "low" | "info";
                    title?: string;
                    /** @description default threshold_breach with a threshold, else policy_violation */
                    type?: "policy_violation" | "anomaly_detection" | "threshold_breach" | "classification_alert";
                };
                conditions: {
                    /** @description event types of the events catalog (62 types), `prefix.*` or `*` */
                    event_types?: string[];
                    /** @description all must hold */
                    fields?: {
                        /** @description type, severity, user, source_ip, query, client_application, session_id, database_id or details.<key> */
                        field: string;
                        operator: "equals" | "not_equals" | "in" | "contains" | "matches" | "exists" | "gt" | "gte" | "lt" | "lte";
                        /** @description string, number, boolean, or an array for `in`; RE2 pattern for `matches` */
                        value?: unknown;
                    }[];
                    severities?: ("info" | "warning" | "critical")[];
                    /** @description raise the alert when `count` matching events of one group occur within `window_minutes` */
                    threshold?: {
                        count: number;
                        group_by?: ("user" | "source_ip" | "database_id" | "client_application" | "session_id")[];
                        window_minutes: number;
                    };
                    /** @description only events of these users */
                    users?: string[];
                };
            };
            /**
             * @description database ids (`db_...`), or `*` for every database
             * @example [
             *       "db_prod_main"
             *     ]
             */
            databases: string[];
            /** @default  */
            description: string;
            /** @default false */
            enabled: boolean;
            /**
             * @description `enforce`: blocks, masks and alerts happen. `shadow`: the policy is evaluated everywhere (pipeline and proxy) but nothing is blocked, masked or alerted; matches are recorded as violations with `action_taken` `would_block` / `would_alert` and `policy.match` events with `shadow: true` (docs/policies.md#shadow-mode). Changing it takes effect within a second.
             * @default enforce
             * @enum {string}
             */
            enforcement_mode: "enforce" | "shadow";
            /** @description unique among policies (409 if taken) */
            name: string;
            /** @enum {string} */
            type: "access_control" | "data_protection" | "query_control" | "alerting";
        };
        CreateReportDto: {
            /** @description database ids in scope; omitted or empty: every database */
            databases?: string[];
            /**
             * @default [
             *       "json",
             *       "csv",
             *       "html",
             *       "pdf"
             *     ]
             */
            formats: ("json" | "csv" | "html" | "pdf")[];
            /**
             * Format: date-time
             * @description end of the period (exclusive); at most 400 days after the start (422)
             * @example 2025-01-31T00:00:00Z
             */
            period_end: string;
            /**
             * Format: date-time
             * @description start of the period (inclusive)
             * @example 2025-01-01T00:00:00Z
             */
            period_start: string;
            /** @enum {string} */
            type: "pci_dss" | "sox" | "hipaa" | "gdpr";
        };
        CreateReportScheduleDto: {
            /**
             * @description five-field cron expression (minute hour day-of-month month day-of-week), read in `timezone`; invalid: 422
             * @example 0 6 1 * *
             */
            cron: string;
            /** @description omitted or empty: every database */
            databases?: string[];
            /** @default true */
            enabled: boolean;
            /**
             * @default [
             *       "json",
             *       "csv",
             *       "html",
             *       "pdf"
             *     ]
             */
            formats: ("json" | "csv" | "html" | "pdf")[];
            /** @description unique among schedules (409 if taken) */
            name: string;
            /**
             * @description each run covers the days before its slot
             * @default 30
             */
            period_days: number;
            /**
             * @description IANA time zone; unknown: 422
             * @default UTC
             * @example Europe/Berlin
             */
            timezone: string;
            /** @enum {string} */
            type: "pci_dss" | "sox" | "hipaa" | "gdpr";
        };
        CreateUserDto: {
            /** @example analyst@example.com */
            email: string;
            /** Format: password */
            password: string;
            /**
             * @example [
             *       "read:logs",
             *       "read:policies"
             *     ]
             */
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        CreateWebhookDto: {
            /**
             * @description Whether deliveries are made (default true).
             * @default true
             */
            active: boolean;
            /** @description Free text. */
            description?: string;
            /**
             * @description Event types to receive, from the events catalog or the webhook catalog; `*` matches every type and `prefix.*` every type starting with `prefix.`. Unknown names are refused with 422.
             * @example [
             *       "security.*",
             *       "policy.violation"
             *     ]
             */
            events: string[];
            /** @description Form A: the signing secret you choose (16 to 256 characters). Omit it for form B. */
            secret?: string;
            /**
             * @description HTTPS endpoint that receives POST deliveries (public addresses only).
             * @example https://hooks.example.com/vigil
             */
            url: string;
        };
        DatabaseDeletedDto: {
            deleted: boolean;
            id: string;
        };
        DatabaseDto: {
            /**
             * @description what monitoring of its event flow concluded (docs/reports.md)
             * @enum {string}
             */
            connection_status: "unknown" | "connected" | "disconnected" | "error";
            /** Format: date-time */
            connection_status_changed_at: string | null;
            /** Format: date-time */
            created_at: string;
            database: string | null;
            description: string;
            environment: string | null;
            /** @description audit events stored for it since it became known */
            event_count: number;
            event_counts: components["schemas"]["EventCountsDto"];
            /** Format: date-time */
            first_event_at: string | null;
            host: string | null;
            /** @example db_prod_main */
            id: string;
            /** @description the last monitoring error an agent reported */
            last_error: string | null;
            /** Format: date-time */
            last_event_at: string | null;
            /** @description the id itself while discovered */
            name: string;
            port: number | null;
            /**
             * @description `discovered`: named by audit records or policies, not registered yet
             * @enum {string}
             */
            status: "registered" | "discovered";
            tags: string[];
            /**
             * @description null while discovered
             * @enum {string|null}
             */
            type: "postgresql" | "mysql" | "mariadb" | "sqlserver" | "oracle" | "mongodb" | "db2" | "snowflake" | "redshift" | "cockroachdb" | "other" | null;
            /** Format: date-time */
            updated_at: string;
        };
        DatabasePageDto: {
            data: components["schemas"]["DatabaseDto"][];
            pagination: components["schemas"]["PaginationDto"];
        };
        DeletedDto: {
            deleted: boolean;
            id: string;
        };
        DeliveryAttemptView: {
            attempt: number;
            /** @description The X-Service-Delivery-ID sent with this attempt. */
            delivery_attempt_id: string;
            error: string | null;
            latency_ms: number;
            started_at: string;
            status_code: number | null;
            success: boolean;
        };
        DeliveryView: {
            attempt_count: number;
            attempts: components["schemas"]["DeliveryAttemptView"][];
            completed_at: string | null;
            created_at: string;
            /** @description The event id: the payload `id`, the same in every attempt. */
            event_id: string;
            event_type: string;
            /** @description The delivery id, sent as the `webhook-id` header on every attempt. */
            id: string;
            last_attempt_at: string | null;
            last_error: string | null;
            last_latency_ms: number | null;
            last_status_code: number | null;
            max_attempts: number;
            next_attempt_at: string | null;
            /** @enum {string} */
            status: "pending" | "in_flight" | "succeeded" | "failed" | "held";
            test: boolean;
            webhook_id: string;
        };
        DestinationPagination: {
            has_more: boolean;
            page: number;
            per_page: number;
            total: number;
        };
        EscalateAlertDto: {
            /**
             * @description Target severity, higher than the current one (default: one step up).
             * @enum {string}
             */
            severity?: "critical" | "high" | "medium" | "low" | "info";
        };
        EventContextDto: {
            policy_id: string | null;
            /** @description Computed at ingest (docs/architecture.md#risk-score). */
            risk_score: number;
            rule_id: string | null;
        };
        EventCountsDto: {
            critical: number;
            info: number;
            warning: number;
        };
        EventDetailDto: {
            context: components["schemas"]["EventContextDto"];
            /**
             * @description A monitored database, or `vigil` for events about Vigil itself (vigil.*, audit.checkpoint).
             * @example db_main
             */
            database_id: string;
            /** @description details.database_name when the producer sent one, else the database id. */
            database_name: string;
            /** @description Keys present depend on the event; producers may add others. */
            details: components["schemas"]["EventDetailsDto"];
            /** @example evt_01jd6w8k2m3n4p5q6r7s8t9v0w */
            id: string;
            /** @description Who submitted the event: the credential of POST /v1/events/ingest (user, api_key, oauth_client), the internal producer of the audit.ingest topic (producer, e.g. kafka:audit.ingest), the pg-proxy (proxy), or Vigil itself for derived and vigil.* events (system, id = the service). Null for events stored before it was recorded. */
            ingested_by: components["schemas"]["IngestedByDto"] | null;
            /** Format: date-time */
            processed_at: string;
            /** @description The producer idempotency key, if any. */
            producer_id: string | null;
            /** @description Same session on the same database, and same policy and rule within an hour. */
            related_events: string[];
            /** @enum {string} */
            severity: "info" | "warning" | "critical";
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "database.query" | "database.connection" | "database.disconnect" | "security.threat_detected" | "security.anomaly" | "security.privilege_escalation" | "policy.violation" | "policy.match" | "data.sensitive_access" | "data.export" | "user.login_failed" | "user.login_success" | "vigil.policy.created" | "vigil.policy.updated" | "vigil.policy.deleted" | "vigil.policy.enabled" | "vigil.policy.disabled" | "vigil.api_key.created" | "vigil.api_key.revoked" | "vigil.user.created" | "vigil.user.updated" | "vigil.user.disabled" | "vigil.user.deleted" | "vigil.user.password_reset" | "vigil.user.password_changed" | "vigil.oauth_client.created" | "vigil.oauth_client.secret_rotated" | "vigil.oauth_client.deleted" | "vigil.api_key.rotated" | "vigil.signing_key.rotated" | "vigil.integrity_key.rotated" | "vigil.secret.reencrypted" | "vigil.token.revoked" | "vigil.session.login_succeeded" | "vigil.session.login_failed" | "vigil.session.refreshed" | "vigil.session.refresh_reused" | "vigil.session.logged_out" | "vigil.session.revoked" | "vigil.oauth.authorized" | "vigil.oauth.token_issued" | "vigil.webhook.created" | "vigil.webhook.updated" | "vigil.webhook.deleted" | "vigil.webhook.tested" | "vigil.webhook.redelivered" | "vigil.alert_destination.created" | "vigil.alert_destination.updated" | "vigil.alert_destination.deleted" | "vigil.alert.tested" | "vigil.alert.acknowledged" | "vigil.alert.resolved" | "vigil.alert.escalated" | "vigil.database.registered" | "vigil.database.updated" | "vigil.database.deleted" | "vigil.report.requested" | "vigil.report.deleted" | "vigil.report_schedule.created" | "vigil.report_schedule.updated" | "vigil.report_schedule.deleted" | "audit.checkpoint";
        };
        EventDetailsDto: {
            client_application?: string;
            query?: string;
            session_id?: string;
            source_ip?: string;
            threat_type?: string;
            user?: string;
        };
        EventListItemDto: {
            /**
             * @description A monitored database, or `vigil` for events about Vigil itself (vigil.*, audit.checkpoint).
             * @example db_main
             */
            database_id: string;
            /** @description Keys present depend on the event; producers may add others. */
            details: components["schemas"]["EventDetailsDto"];
            /** @example evt_01jd6w8k2m3n4p5q6r7s8t9v0w */
            id: string;
            /** @enum {string} */
            severity: "info" | "warning" | "critical";
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "database.query" | "database.connection" | "database.disconnect" | "security.threat_detected" | "security.anomaly" | "security.privilege_escalation" | "policy.violation" | "policy.match" | "data.sensitive_access" | "data.export" | "user.login_failed" | "user.login_success" | "vigil.policy.created" | "vigil.policy.updated" | "vigil.policy.deleted" | "vigil.policy.enabled" | "vigil.policy.disabled" | "vigil.api_key.created" | "vigil.api_key.revoked" | "vigil.user.created" | "vigil.user.updated" | "vigil.user.disabled" | "vigil.user.deleted" | "vigil.user.password_reset" | "vigil.user.password_changed" | "vigil.oauth_client.created" | "vigil.oauth_client.secret_rotated" | "vigil.oauth_client.deleted" | "vigil.api_key.rotated" | "vigil.signing_key.rotated" | "vigil.integrity_key.rotated" | "vigil.secret.reencrypted" | "vigil.token.revoked" | "vigil.session.login_succeeded" | "vigil.session.login_failed" | "vigil.session.refreshed" | "vigil.session.refresh_reused" | "vigil.session.logged_out" | "vigil.session.revoked" | "vigil.oauth.authorized" | "vigil.oauth.token_issued" | "vigil.webhook.created" | "vigil.webhook.updated" | "vigil.webhook.deleted" | "vigil.webhook.tested" | "vigil.webhook.redelivered" | "vigil.alert_destination.created" | "vigil.alert_destination.updated" | "vigil.alert_destination.deleted" | "vigil.alert.tested" | "vigil.alert.acknowledged" | "vigil.alert.resolved" | "vigil.alert.escalated" | "vigil.database.registered" | "vigil.database.updated" | "vigil.database.deleted" | "vigil.report.requested" | "vigil.report.deleted" | "vigil.report_schedule.created" | "vigil.report_schedule.updated" | "vigil.report_schedule.deleted" | "audit.checkpoint";
        };
        EventsPaginationDto: {
            has_more: boolean;
            /** @description Pass as `cursor` for the next page. */
            next_cursor: string | null;
            page: number;
            per_page: number;
            /** @description Pass as `snapshot` for stable later pages. */
            snapshot: string;
            /** @description Matching events; exact up to 1000, then the planner estimate (total_estimated). */
            total: number;
            total_estimated: boolean;
        };
        InclusionProofDto: {
            /** @description RFC 9162 §2.1.3 inclusion path, leaf side first, lowercase hex */
            audit_path: string[];
            checkpoint: components["schemas"]["CheckpointDto"];
            event_id: string;
            leaf_hash: string;
            /** @description seq - 1: the event position in storage order */
            leaf_index: number;
            tree_size: number;
        };
        InFilterDto: {
            /**
             * @example [
             *       "DELETE",
             *       "DROP"
             *     ]
             */
            in: string[];
        };
        IngestedByDto: {
            /** @example key_01jd6w8k2m3n4p5q6r7s8t9v0w */
            id: string;
            /** @enum {string} */
            kind: "user" | "api_key" | "oauth_client" | "producer" | "proxy" | "system";
        };
        IngestEventsDto: {
            /** @description Audit records, stored all or nothing: one invalid record refuses the whole request. */
            events: Record<string, never>[];
        };
        IngestResponseDto: {
            accepted: number;
            ids: string[];
        };
        IntegrityKeyDto: {
            /** @enum {string} */
            algorithm: "Ed25519";
            /**
             * @description first 16 hex digits of SHA-256 of the raw public key
             * @example 3f2a9c0d1e4b5a67
             */
            key_id: string;
            /** @description base64 of the raw 32-byte Ed25519 public key */
            public_key: string;
            /** @enum {string} */
            status: "active" | "retired";
            /** Format: date-time */
            valid_from: string;
            /** Format: date-time */
            valid_until: string | null;
        };
        IntegrityKeysDto: {
            data: components["schemas"]["IntegrityKeyDto"][];
        };
        LeafDto: {
            /** @description the stored event; null when it is no longer stored */
            event: components["schemas"]["LeafEventDto"] | null;
            leaf_hash: string;
            leaf_index: number;
            /** @description false when the event is no longer stored */
            retained: boolean;
        };
        LeafEventDto: {
            context: components["schemas"]["EventContextDto"];
            /**
             * @description A monitored database, or `vigil` for events about Vigil itself (vigil.*, audit.checkpoint).
             * @example db_main
             */
            database_id: string;
            /** @description Keys present depend on the event; producers may add others. */
            details: components["schemas"]["EventDetailsDto"];
            /** @example evt_01jd6w8k2m3n4p5q6r7s8t9v0w */
            id: string;
            /** Format: date-time */
            processed_at: string;
            producer_id: string | null;
            /** @enum {string} */
            severity: "info" | "warning" | "critical";
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "database.query" | "database.connection" | "database.disconnect" | "security.threat_detected" | "security.anomaly" | "security.privilege_escalation" | "policy.violation" | "policy.match" | "data.sensitive_access" | "data.export" | "user.login_failed" | "user.login_success" | "vigil.policy.created" | "vigil.policy.updated" | "vigil.policy.deleted" | "vigil.policy.enabled" | "vigil.policy.disabled" | "vigil.api_key.created" | "vigil.api_key.revoked" | "vigil.user.created" | "vigil.user.updated" | "vigil.user.disabled" | "vigil.user.deleted" | "vigil.user.password_reset" | "vigil.user.password_changed" | "vigil.oauth_client.created" | "vigil.oauth_client.secret_rotated" | "vigil.oauth_client.deleted" | "vigil.api_key.rotated" | "vigil.signing_key.rotated" | "vigil.integrity_key.rotated" | "vigil.secret.reencrypted" | "vigil.token.revoked" | "vigil.session.login_succeeded" | "vigil.session.login_failed" | "vigil.session.refreshed" | "vigil.session.refresh_reused" | "vigil.session.logged_out" | "vigil.session.revoked" | "vigil.oauth.authorized" | "vigil.oauth.token_issued" | "vigil.webhook.created" | "vigil.webhook.updated" | "vigil.webhook.deleted" | "vigil.webhook.tested" | "vigil.webhook.redelivered" | "vigil.alert_destination.created" | "vigil.alert_destination.updated" | "vigil.alert_destination.deleted" | "vigil.alert.tested" | "vigil.alert.acknowledged" | "vigil.alert.resolved" | "vigil.alert.escalated" | "vigil.database.registered" | "vigil.database.updated" | "vigil.database.deleted" | "vigil.report.requested" | "vigil.report.deleted" | "vigil.report_schedule.created" | "vigil.report_schedule.updated" | "vigil.report_schedule.deleted" | "audit.checkpoint";
        };
        LeavesPageDto: {
            data: components["schemas"]["LeafDto"][];
            /** @description pass as from for the next page; null at the end of the tree */
            next_from: number | null;
        };
        ListEventsResponseDto: {
            events: components["schemas"]["EventListItemDto"][];
            pagination: components["schemas"]["EventsPaginationDto"];
        };
        LoggedOutDto: {
            /** @example 1 */
            revoked_sessions: number;
        };
        LoginDto: {
            /** @example admin@example.com */
            email: string;
            /** Format: password */
            password: string;
        };
        MatchedConditionDto: {
            /** @example saturday 23:10 Europe/Berlin is outside monday, friday 08:00-18:00 Europe/Berlin */
            reason: string;
            /**
             * @description user, time_window, ip_restriction, query_pattern, protected_column, classification, event_type, severity, field, threshold
             * @example time_window
             */
            type: string;
        };
        OAuthClientDto: {
            /** @example cli_01j9... */
            client_id: string;
            /** Format: date-time */
            created_at: string;
            grant_types: ("authorization_code" | "client_credentials" | "refresh_token")[];
            name: string;
            /**
             * Format: date-time
             * @description Until then the secret before the last rotation is still accepted
             */
            previous_secret_expires_at: string | null;
            redirect_uris: string[];
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
            /** Format: date-time */
            secret_rotated_at: string | null;
        };
        /** @description OAuth 2.0 error response (RFC 6749 section 5.2) */
        OAuthError: {
            error: string;
            error_description?: string;
            error_uri?: string;
        };
        PaginationDto: {
            has_more: boolean;
            page: number;
            per_page: number;
            total: number;
        };
        PolicyDeletedDto: {
            deleted: boolean;
            id: string;
        };
        PolicyDto: {
            /** @description Depends on `type`; 422 with field paths when invalid for it. One of: */
            config: {
                actions: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                    /** @description `block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match */
                    type: "block" | "alert" | "log";
                }[];
                conditions: {
                    /** @description IPv4 or IPv6 CIDR ranges (or single addresses) access is allowed from */
                    allowed_ips?: string[];
                    time_window?: {
                        /** @description lowercase weekday names; the day a window starts on; default every day */
                        days?: string[];
                        /** @description HH:MM, exclusive; an end not after start crosses midnight */
                        end: string;
                        /** @description HH:MM, inclusive */
                        start: string;
                        /** @description IANA zone name, default UTC */
                        timezone?: string;
                    };
                    /** @description database users the policy governs; omitted or empty = every user */
                    users?: string[];
                };
            } | {
                /** @description beyond masking (always applied): `alert` or `block` make an access a violation; default none = a policy match */
                actions?: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                    /** @description `block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match */
                    type: "block" | "alert" | "log";
                }[];
                /** @description who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused */
                exceptions?: {
                    /** @description narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone */
                    applications?: string[];
                    /** @description database users exempt from the rules (the user the database authenticated) */
                    users?: string[];
                };
                rules: {
                    /** @description data classes (e.g. pii, pci); matched against details.classifications of the event */
                    classifications?: string[];
                    /** @description `column`, `table.column` or `*.column` (case-insensitive); referenced in a query = access */
                    columns?: string[];
                    /** @description `redact`: replaced by ***; `partial`: only show_first/show_last characters kept; `hash`: SHA-256; `null`: NULL */
                    method: "redact" | "partial" | "hash" | "null";
                    name: string;
                    /** @description partial: leading characters kept (default 0) */
                    show_first?: number;
                    /** @description partial: trailing characters kept (default 4) */
                    show_last?: number;
                }[];
            } | {
                /** @description who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused */
                exceptions?: {
                    /** @description narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone */
                    applications?: string[];
                    /** @description database users exempt from the rules (the user the database authenticated) */
                    users?: string[];
                };
                rules: {
                    action: "block" | "alert" | "log";
                    /** @description default false: SQL keywords match in any case */
                    case_sensitive?: boolean;
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    message?: string;
                    name: string;
                    /** @description RE2 regular expression searched in the query */
                    pattern: string;
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                }[];
            } | {
                alert: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    message?: string;
                    /** @description critical, high, medium, low or info */
                    severity: "critical" | "high" | "medium" | "low" | "info";
                    title?: string;
                    /** @description default threshold_breach with a threshold, else policy_violation */
                    type?: "policy_violation" | "anomaly_detection" | "threshold_breach" | "classification_alert";
                };
                conditions: {
                    /** @description event types of the events catalog (62 types), `prefix.*` or `*` */
                    event_types?: string[];
                    /** @description all must hold */
                    fields?: {
                        /** @description type, severity, user, source_ip, query, client_application, session_id, database_id or details.<key> */
                        field: string;
                        operator: "equals" | "not_equals" | "in" | "contains" | "matches" | "exists" | "gt" | "gte" | "lt" | "lte";
                        /** @description string, number, boolean, or an array for `in`; RE2 pattern for `matches` */
                        value?: unknown;
                    }[];
                    severities?: ("info" | "warning" | "critical")[];
                    /** @description raise the alert when `count` matching events of one group occur within `window_minutes` */
                    threshold?: {
                        count: number;
                        group_by?: ("user" | "source_ip" | "database_id" | "client_application" | "session_id")[];
                        window_minutes: number;
                    };
                    /** @description only events of these users */
                    users?: string[];
                };
            };
            /** Format: date-time */
            created_at: string;
            databases: string[];
            description: string;
            enabled: boolean;
            /**
             * @description `enforce`: blocks, masks and alerts happen. `shadow`: the policy is evaluated everywhere (pipeline and proxy) but nothing is blocked, masked or alerted; matches are recorded as violations with `action_taken` `would_block` / `would_alert` and `policy.match` events with `shadow: true` (docs/policies.md#shadow-mode). Changing it takes effect within a second.
             * @enum {string}
             */
            enforcement_mode: "enforce" | "shadow";
            /** @example pol_01j9... */
            id: string;
            /** Format: date-time */
            last_violation_at: string | null;
            name: string;
            /** @enum {string} */
            type: "access_control" | "data_protection" | "query_control" | "alerting";
            /** Format: date-time */
            updated_at: string;
            violation_count: number;
        };
        PolicyEnabledDto: {
            enabled: boolean;
            id: string;
            /** Format: date-time */
            updated_at: string;
        };
        PolicyListItemDto: {
            /** Format: date-time */
            created_at: string;
            databases: string[];
            description: string;
            enabled: boolean;
            /**
             * @description `enforce`: blocks, masks and alerts happen. `shadow`: the policy is evaluated everywhere (pipeline and proxy) but nothing is blocked, masked or alerted; matches are recorded as violations with `action_taken` `would_block` / `would_alert` and `policy.match` events with `shadow: true` (docs/policies.md#shadow-mode). Changing it takes effect within a second.
             * @enum {string}
             */
            enforcement_mode: "enforce" | "shadow";
            /** @example pol_01j9... */
            id: string;
            name: string;
            /** @enum {string} */
            type: "access_control" | "data_protection" | "query_control" | "alerting";
            /** Format: date-time */
            updated_at: string;
            violation_count: number;
        };
        PolicyPageDto: {
            data: components["schemas"]["PolicyListItemDto"][];
            pagination: components["schemas"]["PaginationDto"];
        };
        /** @description RFC 9457 problem document (application/problem+json) with Vigil extension members. */
        ProblemDocument: {
            /** @description Stable snake_case machine code, e.g. `policy_name_taken` */
            code: string;
            /** @description Also in the X-Correlation-ID response header */
            correlation_id: string;
            detail: string;
            /** @description On 500: the id under which the failure was logged */
            error_id?: string;
            /** @description On 400 and 422: every offending field, as a JSON path such as `config.rules[0].pattern` */
            errors?: {
                field: string;
                message: string;
            }[];
            /** @description The request path */
            instance: string;
            /** @description On 429: seconds to wait before retrying (the Retry-After header) */
            retry_after?: number;
            status: number;
            title: string;
            /** @description `urn:vigil:problem:<code>` */
            type: string;
        };
        RedeliverDto: {
            /** @description Only deliveries created at or after this time (ISO 8601). */
            since?: string;
            /** @description States to send again (default failed and held). */
            statuses?: ("failed" | "held" | "succeeded")[];
            /** @description Only deliveries created before this time (ISO 8601). */
            until?: string;
        };
        RefreshDto: {
            /** @description The refresh token of the last login or refresh; it works once. Leave it out to use the refresh cookie instead, which needs the `X-Vigil-Refresh: cookie` header. */
            refresh_token?: string;
        };
        ReportDto: {
            /** Format: date-time */
            completed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description empty: every database */
            databases: string[];
            error: string | null;
            formats: ("json" | "csv" | "html" | "pdf")[];
            /** @example rpt_01jabc... */
            id: string;
            /** @description `self`, and one download address per format once completed */
            links: {
                [key: string]: string;
            };
            /** Format: date-time */
            period_end: string;
            /** Format: date-time */
            period_start: string;
            /** @description generation progress in percent */
            progress: number;
            schedule_id: string | null;
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            status: "queued" | "running" | "completed" | "failed";
            /** @description headline figures once completed: total_events and one per section */
            summary: {
                [key: string]: number;
            } | null;
            title: string;
            /** @enum {string} */
            type: "pci_dss" | "sox" | "hipaa" | "gdpr";
        };
        ReportPageDto: {
            data: components["schemas"]["ReportDto"][];
            pagination: components["schemas"]["PaginationDto"];
        };
        ReportScheduleDto: {
            /** Format: date-time */
            created_at: string;
            cron: string;
            databases: string[];
            enabled: boolean;
            formats: ("json" | "csv" | "html" | "pdf")[];
            /** @example rps_01jabc... */
            id: string;
            last_report_id: string | null;
            /** Format: date-time */
            last_run_at: string | null;
            name: string;
            /**
             * Format: date-time
             * @description the next slot (UTC); null when disabled
             */
            next_run_at: string | null;
            period_days: number;
            timezone: string;
            /** @enum {string} */
            type: "pci_dss" | "sox" | "hipaa" | "gdpr";
            /** Format: date-time */
            updated_at: string;
        };
        ReportSchedulePageDto: {
            data: components["schemas"]["ReportScheduleDto"][];
            pagination: components["schemas"]["PaginationDto"];
        };
        ReportSectionDescriptionDto: {
            controls: string[];
            description: string;
            id: string;
            title: string;
        };
        ReportTypeDto: {
            framework: string;
            sections: components["schemas"]["ReportSectionDescriptionDto"][];
            title: string;
            /** @enum {string} */
            type: "pci_dss" | "sox" | "hipaa" | "gdpr";
        };
        ReportTypeListDto: {
            data: components["schemas"]["ReportTypeDto"][];
        };
        ResetPasswordDto: {
            /**
             * Format: password
             * @description At least 12 characters, not a commonly used password
             */
            password: string;
        };
        RevokedSessionsDto: {
            /**
             * @description Sessions (refresh-token families) revoked
             * @example 2
             */
            revoked_sessions: number;
        };
        RotateApiKeyDto: {
            /**
             * @description Seconds the old key keeps working (its expiry is brought forward to then); 0 revokes it at once.
             * @default 0
             */
            overlap_seconds: number;
        };
        RotateClientSecretDto: {
            /** @description Seconds the current secret is still accepted after the rotation; default OAUTH_SECRET_OVERLAP_SECONDS (one day). 0 ends it at once. */
            overlap_seconds?: number;
        };
        RotatedApiKeyDto: {
            /** @description The new key, with its value: shown in this response only. */
            key: components["schemas"]["CreatedApiKeyDto"];
            /** @description The old key: revoked, or expiring at the end of the overlap. */
            previous: components["schemas"]["ApiKeyDto"];
        };
        RotatedClientSecretDto: {
            client_id: string;
            /** @description The new secret. Shown in this response only. */
            client_secret: string;
            /**
             * Format: date-time
             * @description When the previous secret stops being accepted; null: already
             */
            previous_secret_expires_at: string | null;
        };
        SearchEventsDto: {
            /** @description `pagination.next_cursor` of the previous answer. */
            cursor?: string;
            filters?: components["schemas"]["BodyFiltersDto"];
            /** @default 50 */
            limit: number;
        };
        SearchPaginationDto: {
            has_more: boolean;
            next_cursor: string | null;
            per_page: number;
        };
        SearchResponseDto: {
            events: components["schemas"]["EventListItemDto"][];
            pagination: components["schemas"]["SearchPaginationDto"];
            time_range: components["schemas"]["TimeRangeResponseDto"];
        };
        SigningKeyDto: {
            /** Format: date-time */
            created_at: string;
            kid: string;
            /**
             * Format: date-time
             * @description When a retired key leaves the JWKS (after every token it signed expired)
             */
            published_until: string | null;
            /** Format: date-time */
            retired_at: string | null;
        };
        SigningKeyRotationDto: {
            /** @description Keys in the JWKS, newest first */
            keys: components["schemas"]["SigningKeyDto"][];
            /** @description The key that signs from now on */
            kid: string;
        };
        StartVerificationDto: {
            /**
             * @description first leaf index checked
             * @default 0
             */
            from_index: number;
            /** @description end of the range (exclusive); the tree size when omitted */
            to_index?: number;
            /** @description the checkpointed tree size to verify against; the latest when omitted */
            tree_size?: number;
        };
        TestAlertDto: {
            /**
             * @description The alert destination to send a test alert to.
             * @example dest_01j...
             */
            destination_id: string;
        };
        TestAlertView: {
            alert_id: string;
            attempts: components["schemas"]["AlertDeliveryAttemptView"][];
            delivery_id: string;
            destination_id: string;
            /** @description First attempt to last answer, in ms. */
            duration_ms: number;
            error: string | null;
            /** @description Status of the last attempt (null when no answer arrived). */
            status_code: number | null;
            success: boolean;
        };
        TestPolicyDto: {
            /** @description Vigil extension: the client application (exceptions) */
            client_application?: string;
            /** @description Vigil extension: the database of the simulated event */
            database_id?: string;
            /** @description Vigil extension: further details (e.g. classifications, fields of alerting conditions) */
            details?: Record<string, never>;
            /** @example DROP TABLE customers */
            query?: string;
            /**
             * @description Vigil extension: the simulated event severity
             * @enum {string}
             */
            severity?: "info" | "warning" | "critical";
            /** @example 203.0.113.7 */
            source_ip?: string;
            /**
             * Format: date-time
             * @description default: now
             */
            timestamp?: string;
            /**
             * @description Vigil extension: the simulated event type (alerting conditions)
             * @default database.query
             * @enum {string}
             */
            type: "database.query" | "database.connection" | "database.disconnect" | "security.threat_detected" | "security.anomaly" | "security.privilege_escalation" | "policy.violation" | "policy.match" | "data.sensitive_access" | "data.export" | "user.login_failed" | "user.login_success" | "vigil.policy.created" | "vigil.policy.updated" | "vigil.policy.deleted" | "vigil.policy.enabled" | "vigil.policy.disabled" | "vigil.api_key.created" | "vigil.api_key.revoked" | "vigil.user.created" | "vigil.user.updated" | "vigil.user.disabled" | "vigil.user.deleted" | "vigil.user.password_reset" | "vigil.user.password_changed" | "vigil.oauth_client.created" | "vigil.oauth_client.secret_rotated" | "vigil.oauth_client.deleted" | "vigil.api_key.rotated" | "vigil.signing_key.rotated" | "vigil.integrity_key.rotated" | "vigil.secret.reencrypted" | "vigil.token.revoked" | "vigil.session.login_succeeded" | "vigil.session.login_failed" | "vigil.session.refreshed" | "vigil.session.refresh_reused" | "vigil.session.logged_out" | "vigil.session.revoked" | "vigil.oauth.authorized" | "vigil.oauth.token_issued" | "vigil.webhook.created" | "vigil.webhook.updated" | "vigil.webhook.deleted" | "vigil.webhook.tested" | "vigil.webhook.redelivered" | "vigil.alert_destination.created" | "vigil.alert_destination.updated" | "vigil.alert_destination.deleted" | "vigil.alert.tested" | "vigil.alert.acknowledged" | "vigil.alert.resolved" | "vigil.alert.escalated" | "vigil.database.registered" | "vigil.database.updated" | "vigil.database.deleted" | "vigil.report.requested" | "vigil.report.deleted" | "vigil.report_schedule.created" | "vigil.report_schedule.updated" | "vigil.report_schedule.deleted" | "audit.checkpoint";
            /** @example alice */
            user?: string;
        };
        TestPolicyResultDto: {
            actions_would_execute: components["schemas"]["ActionDto"][];
            matched_conditions: components["schemas"]["MatchedConditionDto"][];
            would_trigger: boolean;
        };
        TestWebhookDto: {
            /**
             * @description Event type of the test delivery (either catalog). The payload carries `test: true`.
             * @example security.threat_detected
             */
            event_type: string;
        };
        TimeRangeDto: {
            /** @description End (exclusive), ISO 8601; default now. */
            end?: string;
            /**
             * @description A duration back from now: 15m, 24h, 7d, 2w (at most 400d).
             * @example 24h
             */
            last?: string;
            /** @description Start (inclusive), ISO 8601; instead of `last`. */
            start?: string;
        };
        TimeRangeResponseDto: {
            /** Format: date-time */
            end: string;
            /** Format: date-time */
            start: string;
        };
        TokenResponseDto: {
            /** @description ES256 JWT; send as `Authorization: Bearer <token>` */
            access_token: string;
            /** @example 3600 */
            expires_in: number;
            /** @description Opaque; rotates on every refresh. Absent when the request asked for the refresh cookie (`X-Vigil-Refresh: cookie`): the token is then only in the cookie. */
            refresh_token?: string;
            /** @example Bearer */
            token_type: string;
        };
        UpdateAlertDestinationDto: {
            /** @description Alert types sent; empty or omitted = all. */
            alert_types?: ("policy_violation" | "anomaly_detection" | "threshold_breach" | "classification_alert")[];
            /**
             * @description Header carrying the API key.
             * @default X-API-Key
             */
            api_key_header: string;
            /** @description The API key value. Write-only; null clears it. */
            api_key_value?: string | null;
            /** @description Basic auth password. Write-only; null clears it. */
            auth_password?: string | null;
            /** @description Bearer token. Write-only; null clears it. */
            auth_token?: string | null;
            /**
             * @default none
             * @enum {string}
             */
            auth_type: "none" | "basic" | "bearer" | "api_key" | "hmac";
            /** @description Basic auth user (required with basic). */
            auth_username?: string | null;
            /**
             * @default application/json
             * @enum {string}
             */
            content_type: "application/json" | "application/x-www-form-urlencoded";
            /** @description Extra headers; they cannot replace authentication, content type or framing headers, and may not contain CR/LF. */
            custom_headers?: {
                [key: string]: string;
            };
            /** @description Database ids; empty = all databases. */
            database_filter?: string[];
            /**
             * @description Enables alert delivery.
             * @default true
             */
            enabled: boolean;
            /**
             * @default sha256
             * @enum {string}
             */
            hmac_algorithm: "sha256" | "sha384" | "sha512";
            /**
             * @description Header carrying the hex HMAC of the raw body. With auth_type hmac the request also carries the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (HMAC-SHA256 keyed by the UTF-8 bytes of hmac_secret); none of the three may be chosen here or as a custom header.
             * @default X-Signature
             */
            hmac_header: string;
            /** @description HMAC secret. Write-only; null clears it. */
            hmac_secret?: string | null;
            /**
             * @description Adds the raw event data (`raw_event`) to the payload.
             * @default false
             */
            include_raw_event: boolean;
            /**
             * @default POST
             * @enum {string}
             */
            method: "POST" | "PUT" | "PATCH";
            /** @description Unique name; policy alert `channels` name destinations by it. */
            name?: string;
            /**
             * @default default
             * @enum {string}
             */
            payload_format: "default" | "custom";
            /** @description Handlebars template of a JSON document (with `custom`); values are JSON-escaped; `#if`, `else if`, `eq` and `json` helpers. Refused (422, with the line) unless it compiles and renders valid JSON for a sample alert. */
            payload_template?: string | null;
            /**
             * @description `webhook` selects the generic HTTP destination.
             * @default webhook
             * @enum {string}
             */
            provider: "webhook";
            /**
             * @description Alerts per minute; excess alerts wait in the queue.
             * @default 60
             */
            rate_limit: number;
            /**
             * @description Retries after a failed attempt.
             * @default 3
             */
            retry_attempts: number;
            /**
             * @description Seconds between retries.
             * @default 5
             */
            retry_delay_seconds: number;
            /** @description Severities sent; empty or omitted = all. */
            severity_filter?: ("critical" | "high" | "medium" | "low" | "info")[];
            /**
             * @description HTTP statuses counted as success.
             * @default [
             *       200,
             *       201,
             *       202,
             *       204
             *     ]
             */
            success_codes: number[];
            /** @default 30 */
            timeout_seconds: number;
            /** @description Target URL (https:// on a public address; checked at save and at send). */
            url?: string;
        };
        UpdateDatabaseDto: {
            database?: string;
            description?: string;
            /** @enum {string} */
            environment?: "production" | "staging" | "development" | "test" | "other";
            host?: string;
            name?: string;
            port?: number;
            tags?: string[];
            /** @enum {string} */
            type?: "postgresql" | "mysql" | "mariadb" | "sqlserver" | "oracle" | "mongodb" | "db2" | "snowflake" | "redshift" | "cockroachdb" | "other";
        };
        UpdatePolicyDto: {
            /** @description Depends on `type`; 422 with field paths when invalid for it. One of: */
            config?: {
                actions: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                    /** @description `block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match */
                    type: "block" | "alert" | "log";
                }[];
                conditions: {
                    /** @description IPv4 or IPv6 CIDR ranges (or single addresses) access is allowed from */
                    allowed_ips?: string[];
                    time_window?: {
                        /** @description lowercase weekday names; the day a window starts on; default every day */
                        days?: string[];
                        /** @description HH:MM, exclusive; an end not after start crosses midnight */
                        end: string;
                        /** @description HH:MM, inclusive */
                        start: string;
                        /** @description IANA zone name, default UTC */
                        timezone?: string;
                    };
                    /** @description database users the policy governs; omitted or empty = every user */
                    users?: string[];
                };
            } | {
                /** @description beyond masking (always applied): `alert` or `block` make an access a violation; default none = a policy match */
                actions?: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                    /** @description `block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match */
                    type: "block" | "alert" | "log";
                }[];
                /** @description who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused */
                exceptions?: {
                    /** @description narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone */
                    applications?: string[];
                    /** @description database users exempt from the rules (the user the database authenticated) */
                    users?: string[];
                };
                rules: {
                    /** @description data classes (e.g. pii, pci); matched against details.classifications of the event */
                    classifications?: string[];
                    /** @description `column`, `table.column` or `*.column` (case-insensitive); referenced in a query = access */
                    columns?: string[];
                    /** @description `redact`: replaced by ***; `partial`: only show_first/show_last characters kept; `hash`: SHA-256; `null`: NULL */
                    method: "redact" | "partial" | "hash" | "null";
                    name: string;
                    /** @description partial: leading characters kept (default 0) */
                    show_first?: number;
                    /** @description partial: trailing characters kept (default 4) */
                    show_last?: number;
                }[];
            } | {
                /** @description who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused */
                exceptions?: {
                    /** @description narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone */
                    applications?: string[];
                    /** @description database users exempt from the rules (the user the database authenticated) */
                    users?: string[];
                };
                rules: {
                    action: "block" | "alert" | "log";
                    /** @description default false: SQL keywords match in any case */
                    case_sensitive?: boolean;
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    message?: string;
                    name: string;
                    /** @description RE2 regular expression searched in the query */
                    pattern: string;
                    /** @description critical, high, medium, low or info */
                    severity?: "critical" | "high" | "medium" | "low" | "info";
                }[];
            } | {
                alert: {
                    /** @description notification channel names (alert destinations by name or id) */
                    channels?: string[];
                    message?: string;
                    /** @description critical, high, medium, low or info */
                    severity: "critical" | "high" | "medium" | "low" | "info";
                    title?: string;
                    /** @description default threshold_breach with a threshold, else policy_violation */
                    type?: "policy_violation" | "anomaly_detection" | "threshold_breach" | "classification_alert";
                };
                conditions: {
                    /** @description event types of the events catalog (62 types), `prefix.*` or `*` */
                    event_types?: string[];
                    /** @description all must hold */
                    fields?: {
                        /** @description type, severity, user, source_ip, query, client_application, session_id, database_id or details.<key> */
                        field: string;
                        operator: "equals" | "not_equals" | "in" | "contains" | "matches" | "exists" | "gt" | "gte" | "lt" | "lte";
                        /** @description string, number, boolean, or an array for `in`; RE2 pattern for `matches` */
                        value?: unknown;
                    }[];
                    severities?: ("info" | "warning" | "critical")[];
                    /** @description raise the alert when `count` matching events of one group occur within `window_minutes` */
                    threshold?: {
                        count: number;
                        group_by?: ("user" | "source_ip" | "database_id" | "client_application" | "session_id")[];
                        window_minutes: number;
                    };
                    /** @description only events of these users */
                    users?: string[];
                };
            };
            databases?: string[];
            description?: string;
            enabled?: boolean;
            /**
             * @description `enforce`: blocks, masks and alerts happen. `shadow`: the policy is evaluated everywhere (pipeline and proxy) but nothing is blocked, masked or alerted; matches are recorded as violations with `action_taken` `would_block` / `would_alert` and `policy.match` events with `shadow: true` (docs/policies.md#shadow-mode). Changing it takes effect within a second.
             * @enum {string}
             */
            enforcement_mode?: "enforce" | "shadow";
            name?: string;
            /**
             * @description changing the type re-checks config (the given one, or the current one) against it
             * @enum {string}
             */
            type?: "access_control" | "data_protection" | "query_control" | "alerting";
        };
        UpdateReportScheduleDto: {
            /** @description five-field cron expression */
            cron?: string;
            databases?: string[];
            enabled?: boolean;
            formats?: ("json" | "csv" | "html" | "pdf")[];
            name?: string;
            period_days?: number;
            /** @description IANA time zone */
            timezone?: string;
            /** @enum {string} */
            type?: "pci_dss" | "sox" | "hipaa" | "gdpr";
        };
        UpdateUserDto: {
            /** @description true disables the account (its sessions and API keys are revoked at once); false enables it again. */
            disabled?: boolean;
            /** @description Replaces the scopes; taking one away ends the user's sessions. */
            scopes?: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        UpdateWebhookDto: {
            /** @description false pauses deliveries; true resumes them and clears a failing flag. */
            active?: boolean;
            description?: string;
            /** @description Event types to receive, from the events catalog or the webhook catalog; `*` matches every type and `prefix.*` every type starting with `prefix.`. Unknown names are refused with 422. */
            events?: string[];
            /** @description New HTTPS endpoint (checked like on create). */
            url?: string;
        };
        UserDto: {
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Set while the account is disabled
             */
            disabled_at: string | null;
            email: string;
            /** @example usr_01j9... */
            id: string;
            scopes: ("read:databases" | "write:databases" | "read:policies" | "write:policies" | "read:alerts" | "write:alerts" | "read:logs" | "read:reports" | "write:reports" | "write:events" | "admin")[];
        };
        VerificationDto: {
            /** @description events checked so far */
            checked: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
            first_failure: components["schemas"]["VerificationFailureDto"] | null;
            from_index: number;
            /** @example ver_01jd4x0c8m7q2r5t6v9w3y4z5a */
            id: string;
            /** @enum {string} */
            status: "running" | "passed" | "failed";
            /** @description exclusive */
            to_index: number;
            /** @description events to check */
            total: number;
            tree_size: number;
        };
        VerificationFailureDto: {
            detail: string;
            event_id: string | null;
            leaf_index: number;
            /** @enum {string} */
            reason: "altered" | "missing" | "reordered" | "unexpected" | "root_mismatch" | "bad_signature";
        };
        ViolationDto: {
            /**
             * @description `blocked` or `alerted`; for a policy in shadow mode `would_block` or `would_alert` (nothing was blocked and no alert was sent)
             * @example blocked
             */
            action_taken: string;
            /** @description database id */
            database: string;
            /** @example vio_01j9... */
            id: string;
            /**
             * @example [
             *       "time_window",
             *       "ip_restriction"
             *     ]
             */
            matched_conditions: string[];
            policy_id: string;
            query: string | null;
            /** @enum {string} */
            severity: "critical" | "high" | "medium" | "low" | "info";
            source_ip: string | null;
            /** Format: date-time */
            timestamp: string;
            user: string | null;
        };
        ViolationPageDto: {
            data: components["schemas"]["ViolationDto"][];
            pagination: components["schemas"]["PaginationDto"];
        };
        WebhookView: {
            active: boolean;
            created_at: string;
            description: string;
            events: string[];
            /** @description Set while the endpoint is flagged as failing (deliveries held). */
            failing_since: string | null;
            /**
             * @description A: client secret, X-Service-Signature over `<timestamp>.<body>`; B: generated secret, X-Service-Signature over the body. Both also send Standard Webhooks headers.
             * @enum {string}
             */
            form: "A" | "B";
            /** @example wh_01j... */
            id: string;
            /** @enum {string} */
            status: "active" | "inactive" | "failing";
            updated_at: string;
            url: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    OAuthController_jwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{keys: JWK[]}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    OAuthController_metadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    OAuthController_authorize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The login-and-consent page (HTML) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Redirect to the client with `code` and `state`, or with an error */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown client or unregistered redirect_uri (HTML, no redirect) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
        };
    };
    OAuthController_consent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The login-and-consent page again, with an error message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Redirect to the registered redirect URI with `code` and `state` (or an OAuth error) */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid or expired form (bad CSRF token, unknown request), as an HTML page */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
        };
    };
    OAuthController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empty; also for unknown tokens */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 6749 error: invalid_request (not form-encoded, no token, two client authentication methods) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description invalid_client */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
        };
    };
    OAuthController_token: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{access_token, token_type, expires_in, refresh_token?, scope}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 6749 error: invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description invalid_client */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RFC 6749 error code, e.g. `invalid_grant` */
                        error: string;
                        error_description?: string;
                    };
                };
            };
        };
    };
    AlertDestinationsController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDestinationPage"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertDestinationsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAlertDestinationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDestinationView"];
                };
            };
            /** @description Malformed body, a missing `name` or `url`, an unknown field, or a wrong JSON type. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_name_taken`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Settings out of bounds or inconsistent (`invalid_alert_destination`, every offending field in `errors[].field`), a template that does not compile or render valid JSON (`invalid_payload_template`, with the line), or a URL that is not allowed (`alert_destination_url_not_allowed`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertDestinationsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDestinationView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertDestinationsController_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAlertDestinationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDestinationView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_name_taken`, or `alert_destination_secrets_unreadable`: the stored secrets do not open (sealed for another destination, or with a key no longer configured; docs/operations.md#secrets-at-rest) and the request does not move the destination to a new url. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Settings out of bounds or inconsistent (`invalid_alert_destination`, every offending field in `errors[].field`), a template that does not compile or render valid JSON (`invalid_payload_template`, with the line), or a URL that is not allowed (`alert_destination_url_not_allowed`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertDestinationsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{deleted: true, id}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertDestinationsController_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAlertDestinationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDestinationView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_name_taken`, or `alert_destination_secrets_unreadable`: the stored secrets do not open (sealed for another destination, or with a key no longer configured; docs/operations.md#secrets-at-rest) and the request does not move the destination to a new url. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Settings out of bounds or inconsistent (`invalid_alert_destination`, every offending field in `errors[].field`), a template that does not compile or render valid JSON (`invalid_payload_template`, with the line), or a URL that is not allowed (`alert_destination_url_not_allowed`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertDestinationsController_deliveries: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                status?: "pending" | "in_flight" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDeliveryPage"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_list: {
        parameters: {
            query?: {
                database_id?: string;
                /** @description Alerts created before this time (ISO 8601). */
                end_date?: string;
                page?: number;
                per_page?: number;
                /** @description Comma-separated severities (critical, high, medium, low, info). */
                severity?: string;
                /** @description Alerts created at or after this time (ISO 8601). */
                start_date?: string;
                /** @description Comma-separated statuses (open, acknowledged, resolved). */
                status?: string;
                /** @description Comma-separated alert types (policy_violation, anomaly_detection, threshold_breach, classification_alert). */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertPageView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_acknowledge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_transition_not_allowed`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_escalate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EscalateAlertDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_transition_not_allowed` (resolved) or `alert_severity_not_higher`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_severity_not_higher`: not an alert severity. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_resolve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_transition_not_allowed`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_counts: {
        parameters: {
            query?: {
                database_id?: string;
                /** @description Alerts created before this time (ISO 8601). */
                end_date?: string;
                /** @description Comma-separated severities (critical, high, medium, low, info). */
                severity?: string;
                /** @description Alerts created at or after this time (ISO 8601). */
                start_date?: string;
                /** @description Comma-separated statuses (open, acknowledged, resolved). */
                status?: string;
                /** @description Comma-separated alert types (policy_violation, anomaly_detection, threshold_breach, classification_alert). */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertCountsView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AlertsController_test: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestAlertDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestAlertView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `alert_destination_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ApiKeysController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: ApiKey[], pagination}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ApiKeysController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description expires_at is not in the future */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ApiKeysController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ApiKeysController_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateApiKeyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedApiKeyDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The key is revoked or expired (code api_key_revoked) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AuthController_login: {
        parameters: {
            query?: never;
            header?: {
                /** @description `cookie`: keep the refresh token in an httpOnly, SameSite=Strict cookie scoped to /v1/auth/refresh (Secure over https) instead of the answer. For browser applications on the gateway's own origin, such as the console. */
                "X-Vigil-Refresh"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponseDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Wrong e-mail or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many attempts from this address, or too many failures for this e-mail address; `retry_after` and Retry-After say when to try again */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AuthController_logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoggedOutDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Not a user's access token from a login (an API key or an OAuth client) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The session is already gone */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AuthController_changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordDto"];
            };
        };
        responses: {
            /** @description How many other sessions were revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoggedOutDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The current password is wrong (code wrong_current_password), or not a user's access token */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The new password is too weak (code weak_password) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AuthController_refresh: {
        parameters: {
            query?: never;
            header?: {
                /** @description `cookie`: keep the refresh token in an httpOnly, SameSite=Strict cookie scoped to /v1/auth/refresh (Secure over https) instead of the answer. For browser applications on the gateway's own origin, such as the console. */
                "X-Vigil-Refresh"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponseDto"];
                };
            };
            /** @description No refresh_token in the body, no `X-Vigil-Refresh: cookie` header and no cookie */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Invalid, expired, revoked or reused refresh token, or no refresh token in the body or the cookie */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The cookie was to be used without the `X-Vigil-Refresh: cookie` header, or from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    AuthController_rotateSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SigningKeyRotationDto"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    DatabasesController_list: {
        parameters: {
            query?: {
                connection_status?: "unknown" | "connected" | "disconnected" | "error";
                environment?: "production" | "staging" | "development" | "test" | "other";
                page?: number;
                per_page?: number;
                /** @description substring of the name or id, case-insensitive */
                q?: string;
                status?: "registered" | "discovered";
                /** @description databases carrying this tag */
                tag?: string;
                type?: "postgresql" | "mysql" | "mariadb" | "sqlserver" | "oracle" | "mongodb" | "db2" | "snowflake" | "redshift" | "cockroachdb" | "other";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabasePageDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:databases or write:databases) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    DatabasesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDatabaseDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:databases or write:databases) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The name is taken, or the id is registered already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    DatabasesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                database_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:databases or write:databases) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No database with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    DatabasesController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                database_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseDeletedDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:databases or write:databases) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No database with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    DatabasesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                database_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDatabaseDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:databases or write:databases) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No database with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    EventsController_list: {
        parameters: {
            query?: {
                /** @description `pagination.next_cursor` of the previous page: the next page at any depth, at constant cost. */
                cursor?: string;
                /** @description A database id, or several comma-separated; `vigil` selects the events about Vigil itself. */
                database_id?: string;
                /** @description End of the range (exclusive), ISO 8601. */
                end_date?: string;
                limit?: number;
                /** @description (page - 1) * limit may reach 10000; deeper pages use cursor. */
                page?: number;
                /** @description One severity, or several comma-separated. */
                severity?: string;
                /** @description `pagination.snapshot` of page 1: later pages ignore events stored after it (stable pages). */
                snapshot?: string;
                /** @description Source IP address. */
                source_ip?: string;
                /** @description Start of the range (inclusive), ISO 8601. */
                start_date?: string;
                /** @description Event type or pattern (`security.*`, `*`); several comma-separated. */
                type?: string;
                /** @description Database user. */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListEventsResponseDto"];
                };
            };
            /** @description A filter is invalid or out of range (limit > 1000, page too deep, unknown type). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Valid credentials without the scope this operation needs */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    EventsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDetailDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Valid credentials without the scope this operation needs */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No event with that id (code event_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    EventsController_aggregate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AggregateEventsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AggregateResponseDto"];
                };
            };
            /** @description Invalid metric, group, filter or time range (errors[].field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Valid credentials without the scope this operation needs */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    EventsController_ingest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IngestEventsDto"];
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResponseDto"];
                };
            };
            /** @description A record is invalid or of a type reserved to Vigil; errors[].field names it (events[3].type). Nothing was stored. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Valid credentials without the scope this operation needs */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Nothing was stored; retry after Retry-After (the records' `id`s make a retry safe). Code `enforcement_not_ready`: event-ingest has not loaded the policies yet (after a start, while the policy service does not answer), and no record is stored without being evaluated against them. Otherwise a service behind the gateway is unavailable (`service_unavailable`). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    EventsController_search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchEventsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponseDto"];
                };
            };
            /** @description Invalid filter or time range (errors[].field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Valid credentials without the scope this operation needs */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    EventsController_stream: {
        parameters: {
            query?: {
                /** @description A database id, or several comma-separated; `vigil` selects the events about Vigil itself. */
                database_id?: string;
                /** @description Resume after this event id, for clients that cannot send the Last-Event-ID header. */
                last_event_id?: string;
                /** @description One severity, or several comma-separated. */
                severity?: string;
                /** @description Event type or pattern (`security.*`, `*`); several comma-separated. */
                type?: string;
            };
            header?: {
                /** @description Resume after this event id. */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid filter, or a Last-Event-ID that is not a stored event. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Valid credentials without the scope this operation needs */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential already has 10 open streams (Retry-After). */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_checkpoints: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointPageDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_checkpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tree_size: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No checkpoint of this size */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_latest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No checkpoint has been signed yet */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrityKeysDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrityKeyDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_leaves: {
        parameters: {
            query?: {
                /** @description first leaf index */
                from?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeavesPageDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_consistency: {
        parameters: {
            query: {
                /** @description a checkpointed tree size (the older) */
                first: number;
                /** @description a checkpointed tree size (the newer) */
                second: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsistencyProofDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No checkpoint of one of the sizes */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The stored tree cannot serve the proof (damaged) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_inclusion: {
        parameters: {
            query: {
                /** @description the event to prove */
                event_id: string;
                /** @description a checkpointed tree size; the latest checkpoint when omitted */
                tree_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InclusionProofDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such event, or no checkpoint of that size */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The event is newer than the checkpoint, or the stored tree cannot serve the proof (damaged) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_start: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartVerificationDto"];
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No checkpoint of that size */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    IntegrityController_verification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationDto"];
                };
            };
            /** @description Malformed JSON, unknown fields, wrong types, out-of-range parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:logs; admin to rotate keys) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No verification with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    OAuthClientsController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: OAuthClient[], pagination}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    OAuthClientsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClientDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedOAuthClientDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A redirect URI cannot be registered */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    OAuthClientsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted client */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such client */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    OAuthClientsController_rotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateClientSecretDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedClientSecretDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such client */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_list: {
        parameters: {
            query?: {
                /** @description policies applied to that database (including those applied to `*`) */
                database_id?: string;
                enabled?: boolean;
                /** @description policies in that enforcement mode */
                enforcement_mode?: "enforce" | "shadow";
                page?: number;
                per_page?: number;
                /** @description Order of the list: `created_at`, oldest first; `violation_count`, most violated first (the all-time `violation_count`, ties oldest first), e.g. for a "most violated policies" view with `per_page=5`. */
                sort?: "created_at" | "violation_count";
                type?: "access_control" | "data_protection" | "query_control" | "alerting";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyPageDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePolicyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A policy with this name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description config is invalid for the type (errors[].field such as config.rules[0].pattern) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePolicyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The name is taken, or the policy kept changing concurrently (retry) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description config is invalid for the type */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDeletedDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_disable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyEnabledDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_enable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyEnabledDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestPolicyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestPolicyResultDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    PoliciesController_violations: {
        parameters: {
            query?: {
                /** @description violations at or before */
                end_date?: string;
                limit?: number;
                page?: number;
                /** @description comma-separated: critical, high, medium, low, info */
                severity?: string;
                /** @description violations at or after */
                start_date?: string;
                /** @description database user */
                user?: string;
            };
            header?: never;
            path: {
                policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ViolationPageDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:policies or write:policies) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No policy ever had this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportSchedulesController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportSchedulePageDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports to read; write:reports to create, change or delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportSchedulesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateReportScheduleDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportScheduleDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports to read; write:reports to create, change or delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A schedule with this name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Invalid cron expression or unknown time zone (errors[].field cron / timezone) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportSchedulesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportScheduleDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports to read; write:reports to create, change or delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No schedule with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportSchedulesController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports to read; write:reports to create, change or delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No schedule with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportSchedulesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateReportScheduleDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportScheduleDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports to read; write:reports to create, change or delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No schedule with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A schedule with this name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Invalid cron expression or unknown time zone */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportsController_types: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportTypeListDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports; write:reports to delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportsController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                /** @description reports of this schedule */
                schedule_id?: string;
                status?: "queued" | "running" | "completed" | "failed";
                type?: "pci_dss" | "sox" | "hipaa" | "gdpr";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportPageDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports; write:reports to delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateReportDto"];
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports; write:reports to delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description period_end not after period_start, or a period longer than the limit */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports; write:reports to delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No report with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDto"];
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports; write:reports to delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No report with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    ReportsController_download: {
        parameters: {
            query?: {
                format?: "json" | "csv" | "html" | "pdf";
            };
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report in the requested format (Content-Disposition names the file) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                    "application/pdf": string;
                    "text/csv": string;
                    "text/html": string;
                };
            };
            /** @description Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Insufficient scope (read:reports; write:reports to delete) */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No report with this id, or not requested in this format */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The report is not completed yet */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: User[], pagination}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The e-mail address is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description This is the last enabled administrator (code last_administrator) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description This is the last enabled administrator (code last_administrator) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResetPasswordDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedSessionsDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The password is too weak (code weak_password) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    UsersController_revokeSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedSessionsDto"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The scope admin is needed */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data, pagination}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookDto"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed body, missing field, unknown field, or an unparseable URL. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unknown event type (`unknown_event_type`) or a URL that is not https:// on a public address (`webhook_url_not_allowed`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{deleted: true, id}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unknown event type or URL not allowed. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_deliveries: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                /** @description Only deliveries in this state. */
                status?: "pending" | "in_flight" | "succeeded" | "failed" | "held";
            };
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{data: DeliveryView[], pagination}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_delivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found` or `webhook_delivery_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_redeliverOne: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryView"];
                };
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found` or `webhook_delivery_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RedeliverDto"];
            };
        };
        responses: {
            /** @description `{redelivered, delivery_ids}`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    WebhooksController_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestWebhookDto"];
            };
        };
        responses: {
            /** @description `{delivery_id, event_id, event_type, status}`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Missing or invalid credentials (problem document). */
            401: {
                headers: {
                    /** @description Bearer error="invalid_token" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The credential lacks the scope (problem document). */
            403: {
                headers: {
                    /** @description Bearer error="insufficient_scope", scope="<needed>" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `webhook_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description `unknown_event_type`. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Too many requests; back off exponentially and retry */
            429: {
                headers: {
                    /** @description Remaining quota (IETF RateLimit header fields) */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description Unexpected error; the problem carries an error_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway is unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description A service behind the gateway did not answer in time */
            504: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
}
