export * from './signing';
export * from './secret-box';
export * from './url-safety';
export * from './secret-box.provider';
