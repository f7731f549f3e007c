export { canonicalJson } from './canonical-json';
export { EMPTY_ROOT, HASH_SIZE, fromHex, isHexHash, leafHash, leafHashHex, nodeHash, nodeHashHex, toHex } from './hashes';
export { LEAF_VERSION, type LeafEvent, eventLeafBytes, eventLeafHash, eventLeafHashHex, eventLeafText } from './leaf';
export {
  type BoundaryProof,
  CompactRange,
  type Subtree,
  type SubtreeHashes,
  type SubtreeRef,
  consistencyProof,
  consistencyProofNodes,
  consistencyProofRanges,
  inclusionPath,
  inclusionPathNodes,
  inclusionPathRanges,
  rootFromInclusionPath,
  rootFromLeaves,
  rootFromRange,
  splitPoint,
  subtreeHash,
  subtreeNodes,
  verifyConsistency,
  verifyInclusion,
} from './merkle';
export { MerkleFrontier, type MerkleFrontierJson, frontierNodes } from './frontier';
export {
  CHECKPOINT_HEADER,
  type CheckpointCheck,
  type CheckpointFields,
  type CheckpointPublicKey,
  type SignedCheckpoint,
  checkCheckpoint,
  checkpointMessage,
  generateCheckpointKey,
  publicKeyFromBase64,
  publicKeyToBase64,
  signCheckpoint,
  verifyCheckpoint,
} from './checkpoint';
