export default {
  displayName: 'policy',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
