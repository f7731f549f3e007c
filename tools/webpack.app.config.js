// Bundles one app (and the libs it uses) into dist/apps/<app>/main.js; npm packages stay external
// and are installed next to it (see each Dockerfile). SWC keeps decorator metadata, which NestJS
// dependency injection reads at run time.
const { resolve } = require('node:path');
const { compilerOptions } = require('../tsconfig.base.json');

const root = resolve(__dirname, '..');

module.exports = (env = {}) => {
  const app = env.app;
  if (!app) throw new Error('usage: webpack --env app=<name> [--env entry=<path of another entry point>]');
  const alias = {};
  for (const [name, [target]] of Object.entries(compilerOptions.paths)) alias[`${name}$`] = resolve(root, target);
  return {
    mode: 'production',
    target: 'node24',
    context: root,
    entry: resolve(root, env.entry ?? `apps/${app}/src/main.ts`),
    output: { path: resolve(root, `dist/apps/${app}`), filename: 'main.js', clean: true },
    devtool: 'source-map',
    optimization: { minimize: false, nodeEnv: false },
    resolve: { extensions: ['.ts', '.js'], alias },
    externalsPresets: { node: true },
    // Every npm package stays a runtime require. This matters for packages that read files next to
    // their own code at run time: bundled, their __dirname would point into dist/. pdfkit (report
    // PDFs, docs/reports.md#pdf) is one: its standard font metrics are modules of its package, and
    // it reads its colour profile from its data/ folder.
    externals: [({ request }, callback) => (/^[@a-z]/i.test(request) && !request.startsWith('@vigil/') ? callback(null, `commonjs ${request}`) : callback())],
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', decorators: true },
                transform: { legacyDecorator: true, decoratorMetadata: true },
                target: 'es2022',
                keepClassNames: true,
              },
              module: { type: 'es6' },
            },
          },
        },
      ],
    },
    stats: 'errors-warnings',
  };
};
