import { Command } from 'commander';
new Command('vigil').parse();
