import { getMetadataStorage, ValidationTypes } from 'class-validator';

/**
 * Whether a DTO can be validated synchronously: true when none of its rules is an async custom constraint.
 * `validateSync` skips async rules, so any doubt (a nested DTO, whose class is only known per value) keeps the
 * async path. Decided once per DTO at boot.
 */
export function canValidateSync(type: Function): boolean {
  const storage = getMetadataStorage();
  for (const rule of storage.getTargetValidationMetadatas(type, '', true, false)) {
    if (rule.type === ValidationTypes.NESTED_VALIDATION) return false;
    if (rule.type === ValidationTypes.CUSTOM_VALIDATION && rule.constraintCls) {
      if (storage.getTargetValidatorConstraints(rule.constraintCls).some((constraint) => constraint.async)) return false;
    }
  }
  return true;
}
