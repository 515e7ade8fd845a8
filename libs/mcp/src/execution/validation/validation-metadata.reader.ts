import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import type { McpClassRef } from '../../core/class-ref.js';

/**
 * One class-validator rule as recorded by a decorator (class-validator does not export the class itself).
 *
 * @example
 * const rule: ValidationMetadata = readValidationMetadata(SearchDto)[0];
 * rule.name; // 'isString'
 */
export type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/**
 * The rules class-validator applies to an instance of `target` when validating without groups: its own rules, then
 * the inherited ones it does not redefine (same property and same rule type). Same result as
 * `getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)`, but that method scans every class
 * ever registered on each call, which makes schema generation quadratic in the number of DTOs; this reads the same
 * storage along the prototype chain only, and falls back to the public method if the storage's shape is unknown.
 *
 * @example
 * readValidationMetadata(CreateOrderDto).map((rule) => `${rule.propertyName}:${rule.name}`);
 */
export function readValidationMetadata(target: McpClassRef): ValidationMetadata[] {
  const storage = getMetadataStorage();
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  // Tag check rather than instanceof: class-validator may live in another realm (Jest's module sandboxes).
  if (Object.prototype.toString.call(byTarget) !== '[object Map]') return storage.getTargetValidationMetadatas(target, '', true, false);
  const registered = byTarget as ReadonlyMap<unknown, readonly ValidationMetadata[]>;

  const own = (registered.get(target) ?? []).filter((metadata) => metadata.target === target || metadata.target === '');
  const ancestors: McpClassRef[] = [];
  for (
    let parent: unknown = Object.getPrototypeOf(target);
    typeof parent === 'function' && parent !== Function.prototype;
    parent = Object.getPrototypeOf(parent)
  ) {
    ancestors.push(parent);
  }
  const inherited: ValidationMetadata[] = [];
  // Root class first: the order in which class-validator's map usually received them.
  for (const ancestor of ancestors.reverse()) {
    for (const metadata of registered.get(ancestor) ?? []) {
      if (typeof metadata.target !== 'function' || metadata.target === target) continue;
      if (!own.some((mine) => mine.propertyName === metadata.propertyName && mine.type === metadata.type)) inherited.push(metadata);
    }
  }
  return own.concat(inherited);
}
