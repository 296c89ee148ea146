/**
 * Template loading: the only importer of handlebars (DESIGN.md). Every template under
 * `templates/<domain>/<family>/<name>.hbs` is compiled once at load with `noEscape` and
 * `strict`, so a broken template fails at start and attack text is never HTML-escaped.
 *
 * A template may start with a metadata comment holding one JSON object:
 *   {{!-- meta: {"traceType": "decision_log", "checks": ["mrn-format"]} --}}
 * Corpus text is never compiled as a template.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { TemplateError } from '../src/domain/errors.js';
import { packagePath } from '../src/domain/package-root.js';

/** Absolute path of the package's bundled `templates/` folder. */
export const TEMPLATES_DIR = packagePath('templates');

/** Free-form metadata declared in a template's leading `{{!-- meta: {...} --}}` comment. */
export interface TemplateMeta {
  traceType?: string;
  store?: 'reasoning' | 'general';
  source?: string;
  trust?: string;
  /** Safety checks a seed template claims were done (claim vocabulary, per domain). */
  checks?: string[];
  format?: string;
  language?: string;
  hardNegatives?: string[];
  [key: string]: unknown;
}

/** A template file compiled by handlebars, with its id, domain, family, name, file, meta and slots. */
export interface CompiledTemplate {
  /** `<domain>/<family>/<name>` */
  id: string;
  domain: string;
  family: string;
  name: string;
  file: string;
  meta: TemplateMeta;
  /** Top-level slot names the template reads, sorted. */
  slots: string[];
  /** Renders with the given slot values; throws TemplateError naming the template. */
  render(slots: Record<string, unknown>): string;
}

const META_RE = /^\s*\{\{!--\s*meta:\s*([\s\S]*?)--\}\}\s*\n?/;

function slotNames(ast: hbs.AST.Program): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; head?: { type?: string; name?: string }; original?: unknown; data?: boolean; parts?: string[] };
    if (n.type === 'PathExpression' && !n.data) {
      const first = Array.isArray(n.parts) && n.parts.length > 0 ? n.parts[0] : undefined;
      if (typeof first === 'string' && first !== 'this') names.add(first);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
    }
  };
  visit(ast);
  // Helper names are not slots.
  for (const helper of Object.keys(Handlebars.helpers)) names.delete(helper);
  return [...names].sort();
}

/**
 * Compiles one template source. Throws TemplateError (with the file name) when the
 * metadata JSON or the Handlebars syntax is broken.
 */
export function compileTemplate(id: string, file: string, source: string): CompiledTemplate {
  const [domain = '', family = '', name = ''] = id.split('/');
  let meta: TemplateMeta = {};
  let body = source;
  const m = META_RE.exec(source);
  if (m) {
    try {
      meta = JSON.parse(m[1] ?? '{}') as TemplateMeta;
    } catch (cause) {
      throw new TemplateError(`${file}: template metadata is not valid JSON`, { cause });
    }
    body = source.slice(m[0].length);
  }
  body = body.replace(/\s+$/, '');
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(body);
  } catch (cause) {
    throw new TemplateError(`${file}: ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
  const compiled = Handlebars.compile(body, { noEscape: true, strict: true });
  try {
    // Force compilation now (Handlebars compiles lazily on first call).
    Handlebars.precompile(body, { noEscape: true, strict: true });
  } catch (cause) {
    throw new TemplateError(`${file}: ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
  return {
    id,
    domain,
    family,
    name,
    file,
    meta,
    slots: slotNames(ast),
    render(slots) {
      try {
        return compiled(slots);
      } catch (cause) {
        throw new TemplateError(`${file}: ${(cause as Error).message.split('\n')[0]}`, { cause });
      }
    },
  };
}

/** All templates, keyed by id, compiled once. */
export interface TemplateSet {
  all: CompiledTemplate[];
  byId: Map<string, CompiledTemplate>;
  /** Templates of one domain and family, sorted by name (stable order for shrinking). */
  of(domain: string, family: string): CompiledTemplate[];
}

/**
 * Loads and compiles every `.hbs` file below `root`. Throws TemplateError naming the
 * first broken file.
 */
export function loadTemplates(root: string = TEMPLATES_DIR): TemplateSet {
  const all: CompiledTemplate[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.hbs')) {
        const rel = path.relative(root, full).split(path.sep).join('/').replace(/\.hbs$/, '');
        all.push(compileTemplate(rel, path.relative(process.cwd(), full) || full, readFileSync(full, 'utf8')));
      }
    }
  };
  walk(root);
  const byId = new Map(all.map((t) => [t.id, t]));
  const groups = new Map<string, CompiledTemplate[]>();
  for (const t of all) {
    const key = `${t.domain}/${t.family}`;
    const list = groups.get(key) ?? [];
    list.push(t);
    groups.set(key, list);
  }
  return { all, byId, of: (domain, family) => groups.get(`${domain}/${family}`) ?? [] };
}

let cached: TemplateSet | undefined;
/** The repository's templates, loaded once per process. */
export function defaultTemplates(): TemplateSet {
  cached ??= loadTemplates();
  return cached;
}
