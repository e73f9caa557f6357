import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { euroText } from '@rental/money';
import { deliveryRecipientLines } from '../../domain/customer/customer';
import { QuoteDetails, customerMonthlyRateCents } from '../../domain/shared/model';

/** WinAnsi (the standard fonts' encoding) has no glyph for everything a name may hold. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\u00A0-\u00FF]/g, '?');

/** The offer as the customer sees it: no partner conditions (factor, commission, surcharge). */
export async function renderOfferPdf(details: QuoteDetails, partnerName: string | null): Promise<Uint8Array> {
  const { quote } = details;
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Offer ${quote.quoteNumber}`);
  pdf.setProducer('Partner Rental API');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([595.28, 841.89]);
  let y = 790;
  const line = (text: string, options: { size?: number; font?: typeof regular; gap?: number } = {}) => {
    if (y < 60) {
      page = pdf.addPage([595.28, 841.89]);
      y = 790;
    }
    page.drawText(printable(text), { x: 50, y, size: options.size ?? 11, font: options.font ?? regular, color: rgb(0.1, 0.1, 0.1) });
    y -= options.gap ?? 16;
  };
  line(`Offer ${quote.quoteNumber}`, { size: 20, font: bold, gap: 28 });
  if (partnerName) line(`From: ${partnerName}`);
  line(`Date: ${new Date().toISOString().slice(0, 10)}`, { gap: 24 });
  line('Lessee', { font: bold });
  for (const text of [quote.customer.company, [quote.customer.firstName, quote.customer.lastName].filter(Boolean).join(' ')]) if (text) line(text);
  y -= 8;
  line('Delivery to', { font: bold });
  for (const text of deliveryRecipientLines(quote)) line(text);
  y -= 8;
  line('Terms', { font: bold });
  line(`Calculation type: ${quote.calculationType}`);
  line(`Duration: ${quote.duration} months`);
  line(`Payment interval: ${quote.paymentInterval ?? 'monthly'}`);
  line(`Monthly rate: ${euroText(customerMonthlyRateCents(quote))}`, { font: bold, gap: 24 });
  line('Items', { font: bold });
  for (const item of details.items) line(`${item.quantity} x ${item.productName ?? item.productNumber} (${item.productNumber})`);
  return pdf.save();
}
