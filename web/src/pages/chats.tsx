// Chats page (being built).
export function ChatsPage() {
  return <h2>Chats</h2>;
}
