// What a purchase came to, in words: only PURCHASED changed anything.
import type { AppPurchaseItemMutation } from '../../ops';

type Result = AppPurchaseItemMutation['purchaseItem'];

export function outcomeText(result: Result, seenPrice: number): string {
  const item = `“${result.itemId}”`;
  switch (result.outcome) {
    case 'PURCHASED':
      return `Bought ${item} from ${result.sellerId} for ${seenPrice}. Your funds: ${result.funds}.`;
    case 'INSUFFICIENT_FUNDS':
      return `Not enough funds: ${item} costs ${result.listedPrice ?? seenPrice} and you have ${result.funds}. Nothing was bought.`;
    case 'PRICE_CHANGED':
      return `Price changed: ${item} is now ${result.listedPrice ?? '?'}, not the ${seenPrice} you saw. Nothing was bought.`;
    case 'ITEM_GONE':
      return `Already sold or taken off the market: ${item}. Nothing was bought.`;
  }
}
