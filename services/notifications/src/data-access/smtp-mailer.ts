import nodemailer from 'nodemailer';
import type { MailMessage } from '../domain/model';
import type { Mailer } from '../domain/ports';

/**
 * Sends over SMTP_URL with MAIL_FROM as sender; a refused or unreachable server rejects, and the
 * mail is retried. Connections are pooled and reused: a connection and SMTP greeting per mail
 * was a tenth of notifications' CPU while checkouts sent a mail per status change.
 */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(url: string, from: string) {
    this.transport = nodemailer.createTransport(
      { url, pool: true, maxConnections: 4, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from },
    );
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
  }

  close(): void {
    this.transport.close();
  }
}
