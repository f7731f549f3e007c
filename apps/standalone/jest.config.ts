export default {
  displayName: 'standalone',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
