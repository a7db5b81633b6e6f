// LOG_FORMAT: which format a process writes, and what each format writes (redaction included).
import { loadConfig } from '../../src/config';
import { chooseLogFormat, createLogger, type LogFormat } from '../../src/common/logger';
import { socketErrorCode } from '../../src/transports/websocket-server';

/** A destination that keeps what it is given, line by line (no line may be empty). */
function memory(): { write(line: string): void; lines: string[] } {
  const lines: string[] = [];
  return { write: (text: string) => void lines.push(...text.replace(/\n$/, '').split('\n')), lines };
}

describe('chooseLogFormat', () => {
  it.each<[LogFormat, boolean, boolean, 'json' | 'pretty']>([
    ['auto', false, true, 'pretty'],
    ['auto', false, false, 'json'],
    ['auto', true, true, 'json'],
    ['auto', true, false, 'json'],
    ['json', false, true, 'json'],
    ['pretty', true, false, 'pretty'],
    ['pretty', false, false, 'pretty'],
  ])('LOG_FORMAT=%s in production=%s on a terminal=%s writes %s', (format, production, terminal, expected) => {
    expect(chooseLogFormat(format, { production, terminal })).toBe(expected);
  });

  it('is auto unless set, and refuses anything but json, pretty or auto', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(
      'LOG_FORMAT must be one of json, pretty, auto, got "text"',
    );
  });
});

describe('the JSON format', () => {
  it('writes one object per line, tokens redacted', () => {
    const out = memory();
    const logger = createLogger('info', 'json', { destination: out });
    logger.info({ token: 'secret-1', req: { headers: { authorization: 'Bearer secret-2' } } }, 'hello');
    expect(out.lines).toHaveLength(1);
    const line = JSON.parse(out.lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'hello', token: '[Redacted]' });
    expect(out.lines[0]).not.toMatch(/secret/);
  });
});

describe('the pretty format', () => {
  const prettyLogger = () => {
    const out = memory();
    return { out, logger: createLogger('debug', 'pretty', { destination: out, colorize: false }) };
  };

  it('writes a readable line with the time, level, message and fields, tokens redacted', () => {
    const { out, logger } = prettyLogger();
    logger.warn({ code: 'NODE_WARNING', token: 'secret-1', headers: { authorization: 'Bearer secret-2' } }, 'careful');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: careful \{"code":"NODE_WARNING","token":"\[Redacted\]","headers":\{"authorization":"\[Redacted\]"\}\}$/,
    );
    expect(out.lines.join('\n')).not.toMatch(/secret/);
  });

  it('writes at once, so a line logged just before the process exits is not lost', () => {
    const { out, logger } = prettyLogger();
    logger.info('stopped');
    expect(out.lines).toEqual([expect.stringMatching(/INFO: stopped$/)]);
  });

  it('writes the start-up banner as a block of labelled lines', () => {
    const { out, logger } = prettyLogger();
    logger.info(
      {
        banner: true,
        url: 'http://127.0.0.1:4000/graphql',
        sandbox: 'http://127.0.0.1:4000/graphql',
        app: 'http://127.0.0.1:4000/app',
        metrics: 'http://127.0.0.1:4000/metrics',
        env: 'development',
        userAuthorization: 'Bearer u.u.u',
        serviceAuthorization: 'Bearer s.s.s',
      },
      'listening on http://127.0.0.1:4000/graphql',
    );
    expect(out.lines).toEqual([
      expect.stringMatching(/INFO: listening on http:\/\/127\.0\.0\.1:4000\/graphql \{"env":"development"\}$/),
      '    API            http://127.0.0.1:4000/graphql',
      '    Sandbox        http://127.0.0.1:4000/graphql',
      '    Web app        http://127.0.0.1:4000/app',
      '    Metrics        http://127.0.0.1:4000/metrics',
      '    User token     Bearer u.u.u',
      '    Service token  Bearer s.s.s',
    ]);
  });

  it('writes a line that merely mentions the banner as any other line', () => {
    const { out, logger } = prettyLogger();
    logger.info({ note: '"banner":true' }, 'quoted');
    expect(out.lines).toEqual([expect.stringMatching(/INFO: quoted \{"note":"\\"banner\\":true"\}$/)]);
  });
});

describe('socketErrorCode', () => {
  it.each([
    ['WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'WS_PAYLOAD_TOO_LARGE'],
    ['WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH', 'WS_PAYLOAD_TOO_LARGE'],
    ['WS_ERR_INVALID_UTF8', 'WS_INVALID_UTF8'],
    ['WS_ERR_INVALID_OPCODE', 'WS_INVALID_FRAME'],
    ['WS_ERR_EXPECTED_MASK', 'WS_INVALID_FRAME'],
    [undefined, 'WS_SOCKET_ERROR'],
  ])('names %s %s', (wsCode, code) => {
    expect(socketErrorCode(wsCode)).toBe(code);
  });
});
