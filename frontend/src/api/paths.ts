// The REST paths of the generated OpenAPI types (schema.gen.ts `paths`), and calls typed by them:
// a path is written as the schema has it, without "/api/v1/" ("clusters/{cluster}/topics"), and
// its path parameters, query, body and answer are the schema's. A path or method the schema does
// not have, a missing or unknown parameter, or a body of the wrong shape fails `tsc`.
import { apiRequest, apiUrl, type RequestOptions } from "./client";
import type { paths } from "./schema.gen";

type Prefix = "/api/v1/";
type StripPrefix<K> = K extends `${Prefix}${infer P}` ? P : never;

/** Every REST path of the schema, without "/api/v1/", with its `{name}` parameters. */
export type ApiPath = StripPrefix<keyof paths>;

export type Method = "get" | "post" | "put" | "patch" | "delete";

type PathItem<P extends ApiPath> = paths[Extract<keyof paths, `${Prefix}${P}`>];

/** The schema's operation for `method` on `path` (never when it has none). */
export type Operation<P extends ApiPath, M extends Method> = NonNullable<PathItem<P>[M]>;

/** The paths that have an operation for `method`. */
export type PathWith<M extends Method> = {
  [P in ApiPath]: [Operation<P, M>] extends [never] ? never : P;
}[ApiPath];

type ParametersOf<O> = O extends { parameters: infer X } ? X : never;
type PathParamsOf<O> = ParametersOf<O> extends { path?: infer X } ? NonNullable<X> : never;
type QueryOf<O> = ParametersOf<O> extends { query?: infer X } ? NonNullable<X> : never;
type JsonBodyOf<O> = O extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? never
    : NonNullable<B> extends { content: { "application/json": infer J } }
      ? J
      : never
  : never;

/** `path`: the path's parameters, required when the template has any. */
type PathOption<O> = [PathParamsOf<O>] extends [never] ? { path?: undefined } : { path: PathParamsOf<O> };
/** `query`: the operation's query parameters (required only when the schema requires one). */
type QueryOption<O> = [QueryOf<O>] extends [never]
  ? { query?: undefined }
  : ParametersOf<O> extends { query: unknown }
    ? { query: QueryOf<O> }
    : { query?: QueryOf<O> };
/** `body`: the operation's JSON request body. */
type BodyOption<O> = [JsonBodyOf<O>] extends [never] ? { body?: undefined } : { body: JsonBodyOf<O> };

/** What a call of `method` on `path` takes: path parameters, query, body, and an abort signal. */
export type CallOptions<P extends ApiPath, M extends Method> = PathOption<Operation<P, M>> &
  QueryOption<Operation<P, M>> &
  BodyOption<Operation<P, M>> & { signal?: AbortSignal };

// 202 is a change held for approval on a protected cluster: apiRequest throws ApprovalRequested
// for it, so it is never a call's answer.
type SuccessStatus = 200 | 201 | 204;
type ResponsesOf<O> = O extends { responses: infer R } ? R : never;
type SuccessResponses<O> = ResponsesOf<O>[Extract<keyof ResponsesOf<O>, SuccessStatus>];
type JsonOf<R> = R extends { content: { "application/json": infer J } }
  ? J
  : R extends { content?: never }
    ? void
    : unknown;

/** The JSON answer of a successful call (void for 204: no body). */
export type ResponseOf<P extends ApiPath, M extends Method> = JsonOf<SuccessResponses<Operation<P, M>>>;

/** Options are optional when nothing in them is required. */
type OptionsArg<P extends ApiPath, M extends Method> = {} extends CallOptions<P, M>
  ? [options?: CallOptions<P, M>]
  : [options: CallOptions<P, M>];

/** A path template with its `{name}` parameters filled in (each encoded as one URL segment). */
export function fillPath(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for {${name}} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

type AnyOptions = {
  path?: Readonly<Record<string, string | number>>;
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
};

function call<R>(method: Method, template: string, options: AnyOptions = {}): Promise<R> {
  return apiRequest<R>(fillPath(template, options.path), {
    method: method.toUpperCase(),
    query: options.query as RequestOptions["query"],
    body: options.body,
    signal: options.signal,
  });
}

/** Calls of the schema's operations, typed by it (errors: ApiError, see client.ts). */
export const typedApi = {
  get: <P extends PathWith<"get">>(path: P, ...[options]: OptionsArg<P, "get">) =>
    call<ResponseOf<P, "get">>("get", path, options as AnyOptions),
  post: <P extends PathWith<"post">>(path: P, ...[options]: OptionsArg<P, "post">) =>
    call<ResponseOf<P, "post">>("post", path, options as AnyOptions),
  put: <P extends PathWith<"put">>(path: P, ...[options]: OptionsArg<P, "put">) =>
    call<ResponseOf<P, "put">>("put", path, options as AnyOptions),
  patch: <P extends PathWith<"patch">>(path: P, ...[options]: OptionsArg<P, "patch">) =>
    call<ResponseOf<P, "patch">>("patch", path, options as AnyOptions),
  delete: <P extends PathWith<"delete">>(path: P, ...[options]: OptionsArg<P, "delete">) =>
    call<ResponseOf<P, "delete">>("delete", path, options as AnyOptions),
};

/** The URL of a GET path of the schema (a download or a link opened in a new tab). */
export function pathUrl<P extends PathWith<"get">>(
  path: P,
  ...[options]: OptionsArg<P, "get">
): string {
  const { path: params, query } = (options ?? {}) as AnyOptions;
  return apiUrl(fillPath(path, params), query as RequestOptions["query"]);
}
