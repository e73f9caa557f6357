import { Client } from 'pg';

export interface GrowOptions {
  /** Number of cases the stack holds afterwards (the cases there are the templates). */
  target: number;
  /** Share of the new cases that stay with their template's partner (the fixture partners'). */
  templatePartnerShare?: number;
  /** Partners the other new cases spread over, a few big and many small. */
  partners?: number;
  /** New cases are dated up to this many days before their template. */
  spreadDays?: number;
}

interface Copy {
  schema: string;
  table: string;
  /** Column of the copied table → SQL over `t` (the template row) and `m` (grow_map). */
  set: Record<string, string>;
  /** Join of `t` to `m`. */
  on: string;
}

const shifted = (column: string) => `t.${column} - m.shift`;
const suffixed = (column: string) => `t.${column} || '-s' || m.n`;

/**
 * The rows of one case in every table that grows with cases, copied for a new case: new ids,
 * numbers and keys, the new partner and the new dates; every other column as the template has it
 * (columns found in the catalog, so a column a migration adds is copied too).
 */
const COPIES: Copy[] = [
  {
    schema: 'case_workflow',
    table: 'financing_cases',
    on: 't.id = m.template_case_id',
    set: {
      id: 'm.case_id',
      partner_id: 'm.partner_id',
      case_number: "'FC-S-' || lpad(m.n::text, 9, '0')",
      cart_id: suffixed('cart_id'),
      quote_request_id: suffixed('quote_request_id'),
      created_at: shifted('created_at'),
      updated_at: shifted('updated_at'),
      last_event_at: shifted('last_event_at'),
    },
  },
  {
    schema: 'case_workflow',
    table: 'quotes',
    on: 't.id = m.template_quote_id',
    set: {
      id: 'm.quote_id',
      financing_case_id: 'm.case_id',
      partner_id: 'm.partner_id',
      quote_number: "'Q-S-' || lpad(m.n::text, 9, '0')",
      cart_id: suffixed('cart_id'),
      quote_request_id: suffixed('quote_request_id'),
      financing_number: "CASE WHEN t.financing_number IS NULL THEN NULL ELSE 'FIN-S-' || m.n END",
      // Companies repeat a little (a customer with a few cases), like a partner's customers do.
      customer: "jsonb_set(t.customer, '{company}', to_jsonb('Company ' || (m.n % (m.total / 3 + 1)) || ' GmbH'))",
      status_updated_at: shifted('status_updated_at'),
      in_review_since: shifted('in_review_since'),
      review_mailed_at: shifted('review_mailed_at'),
      last_reminder_at: shifted('last_reminder_at'),
      last_lender_submission_at: shifted('last_lender_submission_at'),
      created_at: shifted('created_at'),
      updated_at: shifted('updated_at'),
    },
  },
  { schema: 'case_workflow', table: 'quote_items', on: 't.quote_id = m.template_quote_id', set: { quote_id: 'm.quote_id' } },
  {
    schema: 'case_workflow',
    table: 'quote_feedbacks',
    on: 't.quote_id = m.template_quote_id',
    set: { quote_id: 'm.quote_id', created_at: shifted('created_at') },
  },
  {
    schema: 'case_workflow',
    table: 'authorized_persons',
    on: 't.quote_id = m.template_quote_id',
    set: { quote_id: 'm.quote_id', created_at: shifted('created_at'), updated_at: shifted('updated_at') },
  },
  {
    schema: 'case_workflow',
    table: 'financing_responses',
    on: 't.quote_id = m.template_quote_id',
    set: { quote_id: 'm.quote_id', created_at: shifted('created_at') },
  },
  {
    schema: 'case_workflow',
    table: 'case_history',
    on: 't.financing_case_id = m.template_case_id',
    set: { financing_case_id: 'm.case_id', at: shifted('at') },
  },
  {
    schema: 'case_workflow',
    table: 'contracts',
    on: 't.quote_id = m.template_quote_id',
    set: {
      id: 'm.contract_id',
      financing_case_id: 'm.case_id',
      quote_id: 'm.quote_id',
      partner_id: 'm.partner_id',
      contract_number: suffixed('contract_number'),
      status_updated_at: shifted('status_updated_at'),
      created_at: shifted('created_at'),
      updated_at: shifted('updated_at'),
    },
  },
  {
    schema: 'case_workflow',
    table: 'lender_submissions',
    on: 't.quote_id = m.template_quote_id',
    set: {
      quote_id: 'm.quote_id',
      financing_case_id: 'm.case_id',
      partner_id: 'm.partner_id',
      application_id: 'NULL',
      created_at: shifted('created_at'),
      next_attempt_at: shifted('next_attempt_at'),
    },
  },
  {
    schema: 'documents',
    table: 'requested_items',
    on: 't.financing_case_id = m.template_case_id',
    set: { financing_case_id: 'm.case_id', template_object_key: suffixed('template_object_key'), created_at: shifted('created_at') },
  },
  {
    schema: 'documents',
    table: 'documents',
    on: 't.financing_case_id = m.template_case_id',
    set: { financing_case_id: 'm.case_id', object_key: suffixed('object_key'), uploaded_at: shifted('uploaded_at') },
  },
];

interface Column {
  name: string;
  generated: boolean;
}

async function columnsOf(client: Client, schema: string, table: string): Promise<Column[]> {
  const { rows } = await client.query<{ name: string; generated: boolean }>(
    `SELECT column_name AS name, (column_default LIKE 'nextval(%' OR is_identity = 'YES' OR is_generated = 'ALWAYS') AS generated
     FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
    [schema, table],
  );
  return rows;
}

/**
 * Grows a stack's database to `target` financing cases by copying the cases it holds inside
 * Postgres (INSERT … SELECT over generate_series), with their quotes, items, history, contracts,
 * lender submissions, requested items and documents. The benchmarks and the plan tests use it to
 * see how reads cost as the data grows; the numbers of new cases start with FC-S-/Q-S-.
 */
export async function growCases(databaseUrl: string, options: GrowOptions): Promise<{ added: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const {
      rows: [{ count }],
    } = await client.query<{ count: string }>('SELECT count(*) AS count FROM case_workflow.financing_cases');
    const existing = Number(count);
    const added = options.target - existing;
    if (added <= 0) return { added: 0 };
    const templates = await client.query<{ templates: string }>(
      `CREATE TEMP TABLE grow_templates AS
       SELECT row_number() OVER (ORDER BY fc.id) - 1 AS k, fc.id AS case_id, q.id AS quote_id, fc.partner_id
       FROM case_workflow.financing_cases fc JOIN case_workflow.quotes q ON q.financing_case_id = fc.id
       WHERE fc.case_number NOT LIKE 'FC-S-%'`,
    );
    if (templates.rowCount === 0) throw new Error('growCases needs at least one case to copy');
    const {
      rows: [{ first }],
    } = await client.query<{ first: string }>(
      "SELECT coalesce(max(substring(case_number FROM 6)::bigint), 0) + 1 AS first FROM case_workflow.financing_cases WHERE case_number LIKE 'FC-S-%'",
    );
    const start = Number(first);
    // Id letters: Crockford base 32, so the ids pass as ULIDs; one prefix per kind of row.
    const id = (prefix: string) => `'${prefix}' || lpad(g::text, 23, '0')`;
    await client.query(
      `CREATE TEMP TABLE grow_map AS
       SELECT g AS n, $3::bigint AS total, tpl.case_id AS template_case_id, tpl.quote_id AS template_quote_id,
              ${id('7ZC')} AS case_id, ${id('7ZQ')} AS quote_id, ${id('7ZK')} AS contract_id,
              CASE WHEN random() < $4 THEN tpl.partner_id
                   ELSE 'scale-partner-' || lpad(floor($5 * power(random(), 3))::int::text, 5, '0') END AS partner_id,
              make_interval(secs => floor(random() * $6 * 86400)::int) AS shift
       FROM generate_series($1::bigint, $2::bigint) g
       JOIN grow_templates tpl ON tpl.k = g % (SELECT count(*) FROM grow_templates)`,
      [start, start + added - 1, options.target, options.templatePartnerShare ?? 0.2, options.partners ?? 300, options.spreadDays ?? 365],
    );
    for (const copy of COPIES) {
      const columns = (await columnsOf(client, copy.schema, copy.table)).filter((column) => !column.generated);
      if (columns.length === 0) continue;
      const names = columns.map((column) => `"${column.name}"`).join(', ');
      const values = columns.map((column) => copy.set[column.name] ?? `t."${column.name}"`).join(', ');
      await client.query(
        `INSERT INTO ${copy.schema}.${copy.table} (${names}) SELECT ${values} FROM ${copy.schema}.${copy.table} t JOIN grow_map m ON ${copy.on}`,
      );
    }
    await client.query('DROP TABLE grow_map');
    await client.query('DROP TABLE grow_templates');
    await client.query('VACUUM ANALYZE');
    return { added };
  } finally {
    await client.end();
  }
}
