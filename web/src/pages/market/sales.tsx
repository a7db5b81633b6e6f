// The caller's sales, newest first, a page at a time.
import { useQuery } from '@apollo/client/react';
import { AppMySalesDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { PAGE } from './limits';
import { Pager, usePages } from './paging';

export function Sales() {
  const pages = usePages<number>();
  const { data, error } = useQuery(AppMySalesDocument, { variables: { first: PAGE, after: pages.after } });
  const sales = data?.mySales ?? [];
  return (
    <section className="panel" aria-label="My sales">
      <h3>My sales</h3>
      <ErrorLine error={error} />
      {sales.length === 0 ? (
        <p className="muted">No sales{pages.number > 1 ? ' on this page' : ' yet'}.</p>
      ) : (
        <table aria-label="Sales">
          <thead>
            <tr>
              <th>Sale</th>
              <th>Item</th>
              <th>Buyer</th>
              <th>Price</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {sales.map((sale) => (
              <tr key={sale.saleId} data-testid="sale">
                <td>{sale.saleId}</td>
                <td>{sale.itemId}</td>
                <td>{sale.buyerId}</td>
                <td>{sale.price}</td>
                <td>
                  {new Date(sale.soldAt).toLocaleString(undefined, {
                    dateStyle: 'short',
                    timeStyle: 'medium',
                    hour12: false,
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} last={sales[sales.length - 1]?.saleId} full={sales.length === PAGE} />
    </section>
  );
}
