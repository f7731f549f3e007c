import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'vigil:public';

/** Marks a route that needs no credential (health, metrics, login, token endpoints). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
