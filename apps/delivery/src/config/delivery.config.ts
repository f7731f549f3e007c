import { encryptionConfigSpec, env } from '@vigil/platform';

/** The default webhook retry schedule, 7 attempts: attempt 1 at once, then 1 min, 5 min, 30 min, 2 h, 8 h, 24 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [0, 60, 300, 1800, 7200, 28800, 86400];

export const deliveryConfigSpec = {
  ...encryptionConfigSpec,
  /**
   * Local and test use only: allows `http://` and loopback/private targets for
   * webhooks and alert destinations. Off, only `https://` targets on public addresses are reached.
   */
  DELIVERY_ALLOW_INSECURE_TARGETS: env.bool({ default: false }),
  /** Seconds before each attempt (the first counted from the event, the others from the previous attempt). */
  WEBHOOK_RETRY_SCHEDULE: env.list({
    default: DEFAULT_WEBHOOK_RETRY_SCHEDULE.map(String),
    item: /^\d{1,7}$/,
    itemDescription: 'a whole number of seconds',
  }),
  /** A delivery counts as failed unless a 2xx arrives within this time (default 30 s). */
  WEBHOOK_TIMEOUT_MS: env.int({ min: 100, max: 120_000, default: 30_000 }),
  /**
   * How long a worker owns a claimed delivery. Must exceed the timeout: a lease that runs out means
   * the worker died and another one takes the delivery over.
   */
  WEBHOOK_LEASE_MS: env.int({ min: 1_000, max: 600_000, default: 60_000 }),
  /** Requests one delivery instance has open at once, over all endpoints. */
  WEBHOOK_MAX_IN_FLIGHT: env.int({ min: 1, max: 5_000, default: 256 }),
  /** Requests open at once to one endpoint, over all instances: a slow endpoint cannot take every slot. */
  WEBHOOK_ENDPOINT_CONCURRENCY: env.int({ min: 1, max: 1_000, default: 8 }),
  /** Fallback poll of the delivery queue; new deliveries wake the workers through NOTIFY at once. */
  WEBHOOK_POLL_MS: env.int({ min: 10, max: 60_000, default: 500 }),
  /** Jitter applied to every retry delay, as a fraction (0.1 = plus or minus 10%). */
  WEBHOOK_RETRY_JITTER: env.int({ min: 0, max: 50, default: 10, description: 'percent of each retry delay' }),
  /** `{dashboard_url}` of alert templates: alert payloads link to `<DASHBOARD_URL>/alerts/<alert id>`. */
  DASHBOARD_URL: env.url(['http', 'https'], { default: 'http://localhost:3000' }),
  /**
   * The period a destination's `rate_limit` counts over (`rate_limit` is per minute). A test and
   * operations knob: tests shorten it so a burst over the limit does not take minutes.
   */
  ALERT_RATE_WINDOW_MS: env.int({ min: 1, max: 3_600_000, default: 60_000 }),
  /** The same condition on the same subject within this time updates one open alert instead of creating another. */
  ALERT_DEDUP_WINDOW_MS: env.int({ min: 0, max: 86_400_000, default: 600_000 }),
  /** Requests one delivery replica has open at once to alert destinations. */
  ALERT_MAX_IN_FLIGHT: env.int({ min: 1, max: 5_000, default: 128 }),
  /** Requests open at once to one alert destination, over all replicas. */
  ALERT_DESTINATION_CONCURRENCY: env.int({ min: 1, max: 1_000, default: 16 }),
  /** Fallback poll of the alert delivery queue (new deliveries wake the workers through NOTIFY). */
  ALERT_POLL_MS: env.int({ min: 10, max: 60_000, default: 250 }),
};
