/**
 * What can be imported and exported, and the guess that maps a file's columns onto it. Pure: the Data
 * settings screen draws its mapping form from the same lists the server validates against.
 */

export const IMPORT_TABLES = ['customers', 'services', 'staff', 'appointments'] as const;
export type ImportTable = (typeof IMPORT_TABLES)[number];

/** The fields of each table a column can fill, in the order the mapping form shows them. */
export const IMPORT_FIELDS = {
  customers: ['external_id', 'name', 'first_name', 'last_name', 'email', 'phone', 'consent_marketing', 'consent_messages', 'vip'],
  services: ['external_id', 'name', 'category', 'duration_minutes', 'price'],
  staff: ['external_id', 'name', 'active'],
  appointments: [
    'external_id',
    'starts_at',
    'date',
    'time',
    'ends_at',
    'duration_minutes',
    'status',
    'price',
    'customer_external_id',
    'customer_email',
    'customer_name',
    'service_external_id',
    'service_name',
    'staff_external_id',
    'staff_name',
  ],
} as const satisfies Record<ImportTable, readonly string[]>;
export type ImportField<T extends ImportTable = ImportTable> = (typeof IMPORT_FIELDS)[T][number];
export const ALL_IMPORT_FIELDS = [...new Set(Object.values(IMPORT_FIELDS).flat())] as ImportField[];

/** Which column (0-based) fills which field; a field left out is not imported. */
export type ColumnMapping = Partial<Record<ImportField, number>>;

/**
 * What a mapping must cover, as alternatives: each inner list is one way to satisfy it (customers need a
 * name, or a first and a last name; an appointment needs its start as one column or as a date, and one
 * way to find its customer, its service and its staff member).
 */
export const REQUIRED_FIELDS: Record<ImportTable, ImportField[][][]> = {
  customers: [[['name'], ['first_name'], ['last_name']]],
  services: [[['name']], [['duration_minutes']], [['price']]],
  staff: [[['name']]],
  appointments: [
    [['starts_at'], ['date']],
    [['customer_external_id'], ['customer_email'], ['customer_name']],
    [['service_external_id'], ['service_name']],
    [['staff_external_id'], ['staff_name']],
  ],
};

/** The requirements a mapping leaves unmet, as the first field of each (the one to name in a message). */
export function missingFields(table: ImportTable, mapping: ColumnMapping): ImportField[] {
  return REQUIRED_FIELDS[table].filter((ways) => !ways.some((way) => way.every((field) => mapping[field] !== undefined))).map((ways) => ways[0]![0]!);
}

/**
 * Header names seen in the exports of common salon and booking tools, in English and Italian, already
 * normalized (lower case, no accents, letters and digits only): "E-mail" and "Email Address" become
 * "email" and "emailaddress". A header that is exactly one of these is that field.
 */
const SYNONYMS: Record<ImportTable, Partial<Record<ImportField, string[]>>> = {
  customers: {
    external_id: ['id', 'customerid', 'clientid', 'externalid', 'customernumber', 'clientnumber', 'code', 'codice', 'codicecliente', 'idcliente', 'numerocliente'],
    name: ['name', 'fullname', 'customer', 'customername', 'client', 'clientname', 'nomecompleto', 'nominativo', 'cliente', 'nomecliente'],
    first_name: ['firstname', 'first', 'givenname', 'nome'],
    last_name: ['lastname', 'last', 'surname', 'familyname', 'cognome'],
    email: ['email', 'emailaddress', 'mail', 'indirizzoemail', 'postaelettronica'],
    phone: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'mobilenumber', 'cell', 'cellphone', 'telephone', 'tel', 'telefono', 'cellulare', 'numeroditelefono', 'whatsapp'],
    consent_marketing: ['marketingconsent', 'consentmarketing', 'marketing', 'acceptsmarketing', 'newsletter', 'optin', 'emailoptin', 'consensomarketing', 'consensopromozionale', 'privacymarketing'],
    consent_messages: ['messagesconsent', 'consentmessages', 'smsconsent', 'acceptssms', 'reminders', 'consensosms', 'consensomessaggi', 'consensopromemoria', 'promemoria'],
    vip: ['vip'],
  },
  services: {
    external_id: ['id', 'serviceid', 'externalid', 'code', 'codice', 'idservizio', 'codiceservizio'],
    name: ['name', 'service', 'servicename', 'treatment', 'nome', 'servizio', 'nomeservizio', 'trattamento'],
    category: ['category', 'group', 'categoria', 'gruppo', 'reparto'],
    duration_minutes: ['duration', 'durationminutes', 'durationmin', 'minutes', 'length', 'durata', 'durataminuti', 'duratamin', 'minuti'],
    price: ['price', 'cost', 'amount', 'prezzo', 'costo', 'importo', 'tariffa'],
  },
  staff: {
    external_id: ['id', 'staffid', 'employeeid', 'externalid', 'code', 'codice', 'idoperatore', 'iddipendente'],
    name: ['name', 'staff', 'staffname', 'employee', 'stylist', 'operator', 'nome', 'operatore', 'collaboratore', 'dipendente'],
    active: ['active', 'enabled', 'attivo', 'attiva', 'abilitato'],
  },
  appointments: {
    external_id: ['id', 'appointmentid', 'bookingid', 'externalid', 'idappuntamento', 'idprenotazione', 'codiceappuntamento'],
    starts_at: ['start', 'starts', 'startsat', 'datetime', 'startdatetime', 'appointmentstart', 'begin', 'inizio', 'dataora', 'datainizio'],
    date: ['date', 'day', 'appointmentdate', 'data', 'giorno', 'dataappuntamento'],
    time: ['time', 'starttime', 'hour', 'ora', 'orario', 'orainizio'],
    ends_at: ['end', 'ends', 'endsat', 'endtime', 'fine', 'orafine', 'datafine'],
    duration_minutes: ['duration', 'durationminutes', 'minutes', 'durata', 'durataminuti', 'minuti'],
    status: ['status', 'state', 'stato'],
    price: ['price', 'amount', 'total', 'prezzo', 'importo', 'totale'],
    customer_external_id: ['customerexternalid', 'customerid', 'clientid', 'customercode', 'idcliente', 'codicecliente'],
    customer_email: ['customeremail', 'clientemail', 'email', 'emailaddress', 'emailcliente'],
    customer_name: ['customer', 'customername', 'client', 'clientname', 'name', 'cliente', 'nomecliente', 'nominativo'],
    service_external_id: ['serviceexternalid', 'serviceid', 'servicecode', 'idservizio', 'codiceservizio'],
    service_name: ['service', 'servicename', 'treatment', 'servizio', 'trattamento'],
    staff_external_id: ['staffexternalid', 'staffid', 'employeeid', 'idoperatore', 'iddipendente'],
    staff_name: ['staff', 'staffname', 'employee', 'stylist', 'operator', 'operatore', 'collaboratore', 'dipendente'],
  },
};

export function normalizeHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The guess the owner confirms: each field gets the first column whose normalized header is one of its
 * names, each column fills at most one field. A lone "Nome" (first name in Italian) with no surname
 * column is taken as the whole name, as exports with one name column label it.
 */
export function guessMapping(table: ImportTable, headers: readonly string[]): ColumnMapping {
  const normalized = headers.map(normalizeHeader);
  const mapping: ColumnMapping = {};
  const taken = new Set<number>();
  for (const field of IMPORT_FIELDS[table] as readonly ImportField[]) {
    const names = SYNONYMS[table][field] ?? [];
    const column = normalized.findIndex((header, i) => !taken.has(i) && names.includes(header));
    if (column >= 0) {
      mapping[field] = column;
      taken.add(column);
    }
  }
  if (table === 'customers' && mapping.name === undefined && mapping.first_name !== undefined && mapping.last_name === undefined) {
    mapping.name = mapping.first_name;
    delete mapping.first_name;
  }
  return mapping;
}
