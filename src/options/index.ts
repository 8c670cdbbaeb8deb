export { checkOptions, isObject, optionProblem, type CheckOptionsContext, type OptionCheck, type OptionPlace, type OptionsSpec } from './check-options.js';
export {
  accepts,
  anything,
  arrayOf,
  either,
  isAbortSignal,
  isBoolean,
  isEntrySource,
  isFiniteNumber,
  isFunction,
  isNonEmptyString,
  isNonNegativeInteger,
  isPlainObject,
  isPositiveInteger,
  isPositiveNumber,
  isSchema,
  isString,
  isStringArray,
  oneOf,
  recordOf,
  required,
  shape,
} from './option-checks.js';
export { nearestName } from './nearest-name.js';
export { describeOptionValue } from './describe-option-value.js';
