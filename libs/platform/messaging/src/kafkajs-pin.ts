import { StartRefused } from '@vigil/platform';
import { EXPECTED_KAFKAJS, kafkajsInternalsProblems, kafkajsRoot } from './kafkajs-internals';

/** Why a service refuses to start: kafkajs is not the release whose internals are replaced. */
export class KafkajsInternalsMismatch extends StartRefused {
  constructor(
    readonly root: string,
    readonly problems: string[],
  ) {
    super(
      `kafkajs at ${root} is not the release whose internals Vigil replaces (kafkajs ${EXPECTED_KAFKAJS.version}, ` +
        `libs/platform/messaging/src/kafkajs-internals.ts): ${problems.join('; ')}. ` +
        `Install the pinned version (npm ci, or npm install kafkajs@${EXPECTED_KAFKAJS.version} --save-exact), ` +
        `or port the replacements to the new release and update their expected SHA-256.`,
    );
    this.name = 'KafkajsInternalsMismatch';
  }
}

/** Throws KafkajsInternalsMismatch when `problems` (of `checkKafkajsInternals(root)`) is not empty. */
export function assertKafkajsInternals(problems: string[] = kafkajsInternalsProblems, root: string = kafkajsRoot()): void {
  if (problems.length) throw new KafkajsInternalsMismatch(root, problems);
}

