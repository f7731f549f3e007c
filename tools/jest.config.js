// The repository's own tooling (deployment checks); tests run the tools as a user would.
module.exports = {
  displayName: 'tools',
  preset: '../jest.preset.js',
  rootDir: '.',
  // tools/verify is a project of its own (its jest config).
  testPathIgnorePatterns: ['/node_modules/', '/jest/', '/verify/'],
};
