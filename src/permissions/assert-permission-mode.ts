import { ConfigurationError } from '../errors/configuration-error.js';
import { PERMISSION_MODES, type PermissionMode } from '../types/permission.js';
import { describeOptionValue } from '../errors/describe-option-value.js';

/**
 * Checks that a value is a permission mode.
 * @param value - the value to check, e.g. the `permissionMode` option.
 * @param name - how the value is called in the error message.
 * @throws ConfigurationError naming the bad value and the valid modes.
 */
export function assertPermissionMode(value: unknown, name = 'permissionMode'): asserts value is PermissionMode {
  if (!(PERMISSION_MODES as readonly unknown[]).includes(value)) {
    throw new ConfigurationError(
      `${name} ${typeof value === 'string' ? JSON.stringify(value) : describeOptionValue(value)} is not a permission mode; use one of ${PERMISSION_MODES.map((mode) => `"${mode}"`).join(', ')}.`,
    );
  }
}
