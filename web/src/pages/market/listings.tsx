// The market, cheapest first, a page at a time: buy others' listings at the price shown (the
// outcome says what became of it), reprice or delist one's own.
import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import {
  AppDelistItemDocument,
  AppMarketDocument,
  AppPurchaseItemDocument,
  AppRepriceItemDocument,
  type AppMarketQuery,
  type AppPurchaseItemMutation,
} from '../../ops';
import { ErrorLine } from '../../errors';
import { useSession } from '../../context';
import { outcomeText } from './outcome';
import { PAGE, PRICE_MAX } from './limits';
import { Pager, usePages } from './paging';

type Listing = AppMarketQuery['market'][number];
type Outcome = { result: AppPurchaseItemMutation['purchaseItem']; seenPrice: number };

export function Listings({ pull }: { pull: () => void }) {
  const pages = usePages<string>();
  const { data, error } = useQuery(AppMarketDocument, { variables: { first: PAGE, after: pages.after } });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [purchase, purchaseCall] = useMutation(AppPurchaseItemDocument);
  const listings = data?.market ?? [];

  const buy = async (listing: Listing): Promise<void> => {
    setOutcome(null);
    try {
      const { data: bought } = await purchase({
        variables: { itemId: listing.itemId, sellerId: listing.sellerId, price: listing.price },
      });
      if (bought) setOutcome({ result: bought.purchaseItem, seenPrice: listing.price });
    } catch {
      // Shown by the mutation's error.
    }
    pull();
  };

  return (
    <section className="panel" aria-label="For sale">
      <h3>For sale</h3>
      {outcome && (
        <p
          role="status"
          data-testid="purchase-outcome"
          data-outcome={outcome.result.outcome}
          className={outcome.result.outcome === 'PURCHASED' ? 'ok' : 'refused'}
        >
          {outcomeText(outcome.result, outcome.seenPrice)}
        </p>
      )}
      <ErrorLine error={purchaseCall.error} />
      <ErrorLine error={error} />
      {listings.length === 0 ? (
        <p className="muted">Nothing is for sale{pages.number > 1 ? ' on this page' : ''}.</p>
      ) : (
        <table aria-label="Listings">
          <thead>
            <tr>
              <th>Item</th>
              <th>Seller</th>
              <th>Price</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {listings.map((listing) => (
              <ListingRow
                key={listing.itemId}
                listing={listing}
                onBuy={() => void buy(listing)}
                buying={purchaseCall.loading}
                pull={pull}
              />
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} last={listings[listings.length - 1]?.cursor} full={listings.length === PAGE} />
    </section>
  );
}

function ListingRow(props: { listing: Listing; onBuy: () => void; buying: boolean; pull: () => void }) {
  const { listing, onBuy, buying, pull } = props;
  const session = useSession();
  const mine = listing.sellerId === session.user;
  return (
    <tr data-testid="listing" data-item={listing.itemId}>
      <td>{listing.itemId}</td>
      <td>{mine ? `${listing.sellerId} (you)` : listing.sellerId}</td>
      <td data-testid="price">{listing.price}</td>
      <td>
        {mine ? (
          <OwnListing listing={listing} pull={pull} />
        ) : (
          <button type="button" disabled={buying} onClick={onBuy}>
            Buy {listing.itemId} for {listing.price}
          </button>
        )}
      </td>
    </tr>
  );
}

function OwnListing({ listing, pull }: { listing: Listing; pull: () => void }) {
  const [price, setPrice] = useState(listing.price);
  const [reprice, repriceCall] = useMutation(AppRepriceItemDocument);
  const [delist, delistCall] = useMutation(AppDelistItemDocument);
  const run = (call: Promise<unknown>): void => {
    call.catch(() => undefined).finally(pull);
  };
  return (
    <form
      className="inline tight"
      aria-label={`Your listing of ${listing.itemId}`}
      onSubmit={(e) => {
        e.preventDefault();
        run(reprice({ variables: { itemId: listing.itemId, price } }));
      }}
    >
      <label className="check">
        New price for {listing.itemId}
        <input
          type="number"
          min={1}
          max={PRICE_MAX}
          required
          value={price}
          onChange={(e) => setPrice(e.target.valueAsNumber)}
        />
      </label>
      <button type="submit" disabled={repriceCall.loading}>
        Reprice {listing.itemId}
      </button>
      <button
        type="button"
        disabled={delistCall.loading}
        onClick={() => run(delist({ variables: { itemId: listing.itemId } }))}
      >
        Delist {listing.itemId}
      </button>
      <ErrorLine error={repriceCall.error ?? delistCall.error} />
    </form>
  );
}
