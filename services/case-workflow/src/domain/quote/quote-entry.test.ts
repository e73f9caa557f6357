import { quoteStatusEntry } from './quote-entry';
import { QUOTE_STATES } from './quote-machine';

describe('entering a quote status', () => {
  it('when the quote enters in_review, then a new review starts and the links keep working', () => {
    // Arrange, Act
    const entry = quoteStatusEntry('in_review');

    // Assert
    expect(entry).toEqual({ startsReview: true, endsCustomerLinks: null });
  });

  it.each([
    ['canceled', 'canceled'],
    ['review_expired', 'expired'],
  ] as const)('when the quote enters %s, then the customer links end as %s', (status, reason) => {
    // Arrange, Act
    const entry = quoteStatusEntry(status);

    // Assert
    expect(entry).toEqual({ startsReview: false, endsCustomerLinks: reason });
  });

  it('when the quote enters any other status, then the review ends and the links keep working', () => {
    // Arrange
    const others = QUOTE_STATES.filter((status) => !['in_review', 'canceled', 'review_expired'].includes(status));

    // Act
    const entries = others.map(quoteStatusEntry);

    // Assert
    expect(entries).toEqual(others.map(() => ({ startsReview: false, endsCustomerLinks: null })));
  });
});
