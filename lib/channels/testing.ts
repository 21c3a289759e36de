// Tests only: local stand-ins speaking the providers' protocols on loopback — a real SMTP server
// (smtp-server) and Twilio's Messages REST endpoint.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpStandIn {
  port: number;
  received: ParsedMail[];
  /** Answers the next DATA commands with these SMTP errors, one each, before accepting again. */
  refuseNext(...codes: number[]): void;
  close(): Promise<void>;
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const received: ParsedMail[] = [];
  const refusals: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = refusals.shift();
        if (code) {
          const error = Object.assign(new Error(`${code} 4.3.0 Try again later`), { responseCode: code });
          return callback(error);
        }
        simpleParser(Buffer.concat(chunks)).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    refuseNext: (...codes) => refusals.push(...codes),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface TwilioRequest {
  accountSid: string;
  params: Record<string, string>;
}

export interface TwilioStandIn {
  baseUrl: string;
  requests: TwilioRequest[];
  /** Answers the next sends with these HTTP statuses (Twilio's error JSON), one each. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

/** Twilio's REST API for one account: POST /2010-04-01/Accounts/{Sid}/Messages.json with basic auth. */
export async function startTwilioStandIn(account: { sid: string; token: string }): Promise<TwilioStandIn> {
  const requests: TwilioRequest[] = [];
  const failures: number[] = [];
  const server = createServer(async (req, res) => {
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const match = /^\/2010-04-01\/Accounts\/(AC[0-9a-fA-F]{32})\/Messages\.json$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return reply(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    if (user !== account.sid || pass !== account.token || match[1] !== account.sid) {
      return reply(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
    }
    const params = Object.fromEntries(new URLSearchParams(await body(req)));
    const failure = failures.shift();
    if (failure) return reply(failure, { code: failure === 429 ? 20429 : 20500, message: failure === 429 ? 'Too Many Requests' : 'Internal Server Error', status: failure });
    requests.push({ accountSid: match[1], params });
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const now = new Date().toUTCString();
    reply(201, {
      account_sid: account.sid,
      api_version: '2010-04-01',
      body: params.Body,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: params.From,
      messaging_service_sid: null,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      sid,
      status: 'queued',
      subresource_uris: { media: `/2010-04-01/Accounts/${account.sid}/Messages/${sid}/Media.json` },
      to: params.To,
      uri: `/2010-04-01/Accounts/${account.sid}/Messages/${sid}.json`,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
