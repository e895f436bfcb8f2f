import type { DynamicModule, ForwardReference, Type } from '@nestjs/common';

export type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/**
 * Every controller of a module tree, in declaration order, found from the
 * modules' metadata alone: no provider is created, so nothing connects.
 */
export async function collectControllers(root: ModuleRef): Promise<Type[]> {
  const controllers: Type[] = [];
  const seen = new Set<unknown>();
  const visit = async (ref: ModuleRef | undefined): Promise<void> => {
    if (!ref) return;
    const resolved = await ref;
    if ('forwardRef' in resolved && typeof resolved.forwardRef === 'function') return visit(resolved.forwardRef());
    const dynamic = 'module' in resolved ? (resolved as DynamicModule) : undefined;
    const moduleClass = (dynamic?.module ?? resolved) as Type;
    const key = dynamic ?? moduleClass;
    if (seen.has(key)) return;
    seen.add(key);
    const declared: Type[] = [...(Reflect.getMetadata('controllers', moduleClass) ?? []), ...(dynamic?.controllers ?? [])];
    for (const controller of declared) if (!controllers.includes(controller)) controllers.push(controller);
    const imports: ModuleRef[] = [...(Reflect.getMetadata('imports', moduleClass) ?? []), ...(dynamic?.imports ?? [])];
    for (const imported of imports) await visit(imported);
  };
  await visit(root);
  return controllers;
}
