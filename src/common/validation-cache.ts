import { TransformationType, plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * What class-validator and class-transformer would otherwise work out again on every request, although
 * it changes only while classes are being defined. Same rules, same results, same messages: these are
 * answers of the two libraries kept, not rules of our own.
 */

// ---------------------------------------------------------------------------------------------
// class-validator: a class's rules

type Storage = ReturnType<typeof getMetadataStorage>;
type Grouped = ReturnType<Storage['groupByPropertyName']>;
/** A class, as both libraries take it. */
type Target = Parameters<Storage['getTargetValidationMetadatas']>[0];

/** Whether class-transformer would copy a class's validated fields as they are (no @Type, @Transform, @Expose, @Exclude). */
const copiesAsIs = new Map<Target, boolean>();

/**
 * class-validator looks a class's rules up on every validate(): it tests the class against every class
 * it knows (an `instanceof` each, for inherited rules), filters, and groups the rules by property. On
 * a one-field query that was a quarter of validating it. The answer depends only on the class and the
 * options, and rules are only added (by decorators, when a class is defined), so it is kept per class
 * and options and dropped whenever a rule is added.
 */
function memoizeRuleLookups(storage: Storage): void {
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let rules = new Map<Target, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Groups are not used by this API: calls with them are answered as they come.
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    const key = `${schema}|${always}|${strictGroups}`;
    let ofTarget = rules.get(target);
    if (!ofTarget) rules.set(target, (ofTarget = new Map()));
    let found = ofTarget.get(key);
    if (!found) ofTarget.set(key, (found = lookUp(target, schema, always, strictGroups, groups)));
    return found;
  };
  // class-validator reads the grouped rules and never changes them (nor the list they come from).
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
  storage.addValidationMetadata = (metadata) => {
    rules = new Map();
    grouped = new WeakMap();
    copiesAsIs.clear();
    addRule(metadata);
  };
}

memoizeRuleLookups(getMetadataStorage());

// ---------------------------------------------------------------------------------------------
// class-transformer: building a DTO from its input

function hasNoTransforms(cls: Target): boolean {
  let plain = copiesAsIs.get(cls);
  if (plain === undefined) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
    plain =
      defaultMetadataStorage.getExposedMetadatas(cls).length === 0 &&
      defaultMetadataStorage.getExcludedMetadatas(cls).length === 0 &&
      rules.every(({ propertyName: p }) => !defaultMetadataStorage.findTypeMetadata(cls, p) && defaultMetadataStorage.findTransformMetadatas(cls, p, TransformationType.PLAIN_TO_CLASS).length === 0);
    copiesAsIs.set(cls, plain);
  }
  return plain;
}

/**
 * plainToInstance(cls, input), in short where it can be: for a class none of whose validated fields
 * class-transformer changes, and an input of strings, numbers, booleans and nulls only (a query, most
 * bodies), class-transformer copies each field as it is, and that copy is made here, with its rules:
 * `__proto__` and `constructor` are skipped, and so is a name the class answers with a method or a
 * read-only accessor of its own (`toString`). A field class-transformer would have changed is not
 * validated, so it is refused as unknown either way. Anything else (nested objects, arrays) goes
 * through class-transformer itself.
 */
export function toDtoInstance<T extends object>(cls: new () => T, input: object): T {
  if (!hasNoTransforms(cls)) return plainToInstance(cls, input);
  const instance = new cls() as Record<string, unknown>;
  const source = input as Record<string, unknown>;
  const proto = cls.prototype as object;
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value !== null && typeof value === 'object') return plainToInstance(cls, input);
    if (key === '__proto__' || key === 'constructor') continue;
    const own = Object.getOwnPropertyDescriptor(proto, key);
    if ((own && !own.set) || instance[key] instanceof Function) continue;
    instance[key] = value;
  }
  return instance as T;
}
