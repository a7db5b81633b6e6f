// The marketplace: what is for sale, the caller's funds, items and sales. A change in the
// market and a sale of one's own listing are announced; the page then pulls what it shows
// (and everything again after the socket comes back).
import { useApolloClient, useQuery, useSubscription } from '@apollo/client/react';
import {
  AppInventoryDocument,
  AppMarketChangedDocument,
  AppMarketDocument,
  AppMeDocument,
  AppMySalesDocument,
  AppSalesInboxDocument,
} from '../ops';
import { useReconnect } from '../context';
import { ErrorLine } from '../errors';
import { Listings } from './market/listings';
import { Inventory } from './market/inventory';
import { Sales } from './market/sales';
import './market.css';

export function MarketPage() {
  const client = useApolloClient();
  const me = useQuery(AppMeDocument);
  const refetch = (include: Parameters<typeof client.refetchQueries>[0]['include']): void =>
    void client.refetchQueries({ include }).catch(() => undefined);
  /** After one's own change: the market, funds and inventory may all have moved. */
  const pullMine = (): void => refetch([AppMarketDocument, AppMeDocument, AppInventoryDocument]);

  useSubscription(AppMarketChangedDocument, { onData: () => refetch([AppMarketDocument, AppMeDocument]) });
  useSubscription(AppSalesInboxDocument, {
    onData: ({ data }) => {
      if (data.data?.inboxChanged.saleId != null || data.data?.inboxChanged.catchUp)
        refetch([AppMySalesDocument, AppMeDocument]);
    },
  });
  useReconnect(() => refetch('active'));

  const account = me.data?.me;
  return (
    <>
      <h2>Market</h2>
      <p className="account-line" aria-label="My account">
        {account ? (
          <>
            Funds: <strong data-testid="funds">{account.funds}</strong> · Items held:{' '}
            <strong data-testid="items-held">{account.items}</strong>
          </>
        ) : (
          <span className="muted">Reading your account…</span>
        )}
      </p>
      <ErrorLine error={me.error} />
      <div className="market-columns">
        <Listings pull={pullMine} />
        <div className="market-side">
          <Inventory pull={pullMine} />
          <Sales />
        </div>
      </div>
    </>
  );
}
