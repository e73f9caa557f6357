import { PDFDocument, PDFFont, PDFPage, StandardFonts } from 'pdf-lib';
import { euroText } from '@rental/money';
import { customerMonthlyRateCents } from '../domain/shared/model';
import type { ContractRenderer, ContractToSign } from '../domain/contract/ports';

const MARGIN = 50;
const LINE = 16;

/** Standard fonts encode WinAnsi only; anything else is shown as '?' instead of failing the render. */
const printable = (value: string) => value.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

/**
 * The contract to be signed, rendered with pdf-lib from the frozen quote: case and contract
 * numbers, customer, delivery recipient (the quote's resolved shippingAddress: exactly the
 * partner's deliveryAddress when given, else the customer's address), items, terms, signers.
 */
export class PdfContractRenderer implements ContractRenderer {
  async render(contract: ContractToSign): Promise<Buffer> {
    const pdf = await PDFDocument.create();
    pdf.setTitle(`Rental contract ${contract.caseNumber}`);
    pdf.setCreationDate(new Date(0));
    pdf.setModificationDate(new Date(0));
    const regular = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    let page = pdf.addPage();
    let y = page.getHeight() - MARGIN;
    const write = (text: string, font: PDFFont = regular, size = 11) => {
      if (y < MARGIN) {
        page = pdf.addPage();
        y = page.getHeight() - MARGIN;
      }
      (page as PDFPage).drawText(printable(text), { x: MARGIN, y, size, font });
      y -= LINE;
    };
    const { quote, items } = contract;
    const customer = quote.customer;
    const delivery = quote.shippingAddress;
    write('Rental contract', bold, 18);
    y -= 6;
    write(`Financing case ${contract.caseNumber}`);
    write(`Contract number ${contract.contractNumber ?? '(assigned later)'}`);
    write(`Quote ${quote.quoteNumber}`);
    y -= 8;
    write('Customer (lessee)', bold);
    for (const line of [
      customer.company,
      [customer.firstName, customer.lastName].filter(Boolean).join(' '),
      [customer.street, customer.houseNumber].filter(Boolean).join(' '),
      [customer.zipCode, customer.city].filter(Boolean).join(' '),
      customer.country,
      customer.email,
    ]) {
      if (line) write(line);
    }
    y -= 8;
    write('Delivery to', bold);
    for (const line of [
      delivery.recipientName,
      delivery.company,
      [delivery.street, delivery.houseNumber].filter(Boolean).join(' '),
      [delivery.zipCode, delivery.city].filter(Boolean).join(' '),
      delivery.country,
    ]) {
      if (line) write(line);
    }
    y -= 8;
    write('Items', bold);
    for (const item of items)
      write(
        `${item.quantity} x ${item.productName ?? item.productNumber} (${item.productNumber})  ${euroText(item.pricePerItemCents)} each, ${euroText(item.totalCents)}`,
      );
    y -= 8;
    write('Terms', bold);
    write(`Calculation type ${quote.calculationType}`);
    write(`Duration ${quote.duration} months`);
    write(`Monthly rate ${euroText(customerMonthlyRateCents(quote))}`);
    if (quote.paymentInterval) write(`Payment interval ${quote.paymentInterval}`);
    y -= 8;
    write('Signers', bold);
    for (const signer of contract.signers) write(`${signer.firstName} ${signer.lastName} <${signer.email}>`);
    return Buffer.from(await pdf.save());
  }
}
