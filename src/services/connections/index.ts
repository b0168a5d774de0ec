export { listCounterparties } from './counterparties';
export { listConnections } from './list';
export { removeConnection, respondToConnection, sendConnection } from './requests';
export {
  CONNECTION_STATUSES,
  type ConnectionLists,
  connectionListsSchema,
  connectionSchema,
  listConnectionsInput,
  type ListedConnection,
  sendConnectionInput,
} from './schemas';
