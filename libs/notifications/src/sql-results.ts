/** UPDATE … RETURNING answers [rows, count] through TypeORM's postgres driver. */
export function updatedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : [];
}
