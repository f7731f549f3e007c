// @octokit/webhooks-methods exports only an ES-module `import` condition, which the workspace's
// `node` module resolution cannot see; this declares the one function the webhook tests use.
declare module '@octokit/webhooks-methods' {
  export function verify(secret: string, payload: string, signature: string): Promise<boolean>;
  export function sign(secret: string, payload: string): Promise<string>;
}
