import { render } from 'preact';
import { App } from './App';
import { storeToken, takeTokenFromAddress } from './auth';
import './styles.css';

// Before anything else (and before any request): a #token= in the address signs in and leaves the address bar.
const token = takeTokenFromAddress();
if (token) storeToken(token);

render(<App />, document.getElementById('app')!);
