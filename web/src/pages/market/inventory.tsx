// The caller's items (not those listed), each with a price to list it at.
import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { AppInventoryDocument, AppListItemDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { PAGE, PRICE_MAX } from './limits';
import { Pager, usePages } from './paging';

export function Inventory({ pull }: { pull: () => void }) {
  const pages = usePages<string>();
  const { data, error } = useQuery(AppInventoryDocument, { variables: { first: PAGE, after: pages.after } });
  const items = data?.inventory ?? [];
  return (
    <section className="panel" aria-label="My inventory">
      <h3>My inventory</h3>
      <ErrorLine error={error} />
      {items.length === 0 ? (
        <p className="muted">No items{pages.number > 1 ? ' on this page' : ''}.</p>
      ) : (
        <ul className="items">
          {items.map((item) => (
            <ItemRow key={item} item={item} pull={pull} />
          ))}
        </ul>
      )}
      <Pager pages={pages} last={items[items.length - 1]} full={items.length === PAGE} />
    </section>
  );
}

function ItemRow({ item, pull }: { item: string; pull: () => void }) {
  const [price, setPrice] = useState<number>(NaN);
  const [list, { loading, error }] = useMutation(AppListItemDocument);
  return (
    <li data-testid="inventory-item" data-item={item}>
      <form
        className="inline tight"
        aria-label={`Sell ${item}`}
        onSubmit={(e) => {
          e.preventDefault();
          list({ variables: { itemId: item, price } })
            .catch(() => undefined)
            .finally(pull);
        }}
      >
        <span className="item-name">{item}</span>
        <label className="check">
          Price for {item}
          <input
            type="number"
            min={1}
            max={PRICE_MAX}
            required
            value={Number.isNaN(price) ? '' : price}
            onChange={(e) => setPrice(e.target.valueAsNumber)}
          />
        </label>
        <button type="submit" disabled={loading}>
          List {item}
        </button>
      </form>
      <ErrorLine error={error} />
    </li>
  );
}
