import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import type { McpClassRef } from '../../core/class-ref.js';

/** One class-validator rule as recorded by a decorator (class-validator does not export the class itself). */
export type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** Constructors that describe a JSON value (or convert one) but never a nested DTO. */
export const BUILT_IN_TYPES: ReadonlySet<unknown> = new Set([
  Object,
  Array,
  String,
  Number,
  Boolean,
  Date,
  Function,
  Promise,
  Map,
  Set,
  Symbol,
  BigInt,
  RegExp,
]);

/** The class and its ancestors, nearest first. */
export function lineage(target: McpClassRef): McpClassRef[] {
  const result: McpClassRef[] = [];
  for (let type: unknown = target; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    result.push(type as McpClassRef);
  }
  return result;
}

/**
 * The rules class-validator applies to `target` without groups: its own, then the inherited ones it does not redefine.
 * `getTargetValidationMetadatas(target, '', true, false)` answers the same but scans every registered class per call
 * (quadratic boots); this walks the prototype chain, falling back to it if the storage's shape is unknown.
 */
export function readValidationMetadata(target: McpClassRef): ValidationMetadata[] {
  const storage = getMetadataStorage();
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  // Tag check rather than instanceof: class-validator may live in another realm (Jest's module sandboxes).
  if (Object.prototype.toString.call(byTarget) !== '[object Map]') return storage.getTargetValidationMetadatas(target, '', true, false);
  const registered = byTarget as ReadonlyMap<unknown, readonly ValidationMetadata[]>;

  const own = (registered.get(target) ?? []).filter((metadata) => metadata.target === target || metadata.target === '');
  const inherited: ValidationMetadata[] = [];
  // Root class first: the order in which class-validator's map usually received them.
  for (const ancestor of lineage(target).slice(1).reverse()) {
    for (const metadata of registered.get(ancestor) ?? []) {
      if (typeof metadata.target !== 'function' || metadata.target === target) continue;
      if (!own.some((mine) => mine.propertyName === metadata.propertyName && mine.type === metadata.type)) inherited.push(metadata);
    }
  }
  return own.concat(inherited);
}
