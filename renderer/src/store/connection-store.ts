// The state of the link to the engine (connecting, open, refused, closed), for the banner and the pages.
import { create } from 'zustand';
import { onConnectionState, type ConnectionState } from '../api/desk';

export const useConnection = create<{ state: ConnectionState }>(() => ({ state: 'connecting' }));

onConnectionState((state) => useConnection.setState({ state }));
