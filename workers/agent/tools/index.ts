// Every tool's handler, by the name the model calls it (domain/agent/tools.ts defines them).
import type { ToolName } from '../../../domain/agent/tools.js';
import { getArticles } from './articles.js';
import { addToCart, readCartTool, removeFromCart, swapCartItem, updateCartQuantity } from './cart.js';
import type { ToolHandler } from './context.js';
import { lookupProducts } from './lookup.js';
import { composeLooks } from './looks.js';
import { askQuestion, suggestReplies } from './on-screen.js';
import { showProducts } from './show.js';

export const toolHandlers: { [N in ToolName]: ToolHandler<N> } = {
  get_articles: getArticles,
  lookup_products: lookupProducts,
  show_products: showProducts,
  compose_looks: composeLooks,
  ask_question: askQuestion,
  suggest_replies: suggestReplies,
  read_cart: readCartTool,
  add_to_cart: addToCart,
  swap_cart_item: swapCartItem,
  update_cart_quantity: updateCartQuantity,
  remove_from_cart: removeFromCart,
};

export { ToolError, type ToolDeps } from './context.js';
