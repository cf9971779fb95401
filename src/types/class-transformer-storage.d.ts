// class-transformer's metadata storage: shipped as cjs/storage.js, its types under types/.
declare module 'class-transformer/cjs/storage' {
  export const defaultMetadataStorage: import('class-transformer/types/MetadataStorage').MetadataStorage;
}
