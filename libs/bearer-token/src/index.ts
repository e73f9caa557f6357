export * from './verifier';
export * from './authentication';
