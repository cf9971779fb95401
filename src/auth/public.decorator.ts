import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'irs:isPublic';

/** Marks a route that needs no token (health, for instance). Everything else does. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
